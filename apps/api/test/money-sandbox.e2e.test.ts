import { expect } from 'vitest';
import { moneyScenarios } from './money.suite.js';
import { ordersSuite } from './orders.suite.js';

/** The money rules against the sandbox (money.suite.ts): refunds and disputes through the payment test helpers. */
const made = new Map<string, { orderId: string; amount: number; kind: 'transfer' | 'reversal' }>();
const suite = ordersSuite({
  ports: (local) => ({
    payments: {
      ...local.payments,
      async transfer(req) {
        const t = await local.payments.transfer(req);
        made.set(t.providerId, { orderId: req.orderId, amount: req.amount, kind: 'transfer' });
        return t;
      },
      async reverseTransfer(req) {
        const r = await local.payments.reverseTransfer(req);
        made.set(r.providerId, { orderId: req.orderId, amount: req.amount, kind: 'reversal' });
        return r;
      },
    },
  }),
});
const helper = async (url: string, payload: Record<string, unknown>, session?: string) => {
  const res = await suite.h.request({ method: 'POST', url, key: suite.shop.secret, payload, ...(session && { session }) });
  expect(res.statusCode, res.body).toBe(200);
  await suite.h.runJobs();
};

moneyScenarios({
  suite,
  onboarded: (seller) => helper('/v1/test-helpers/payouts/account', { status: 'ready' }, seller.token),
  refundOutside: (orderId, amount) => helper('/v1/test-helpers/payments/refund', { order_id: orderId, amount }),
  dispute: (orderId, status) => helper('/v1/test-helpers/payments/dispute', { order_id: orderId, status, reason: 'fraudulent' }),
  async keptBySeller(orderId) {
    return [...made.values()].filter((m) => m.orderId === orderId).reduce((sum, m) => sum + (m.kind === 'transfer' ? m.amount : -m.amount), 0);
  },
  async settle() {
    await suite.h.runJobs();
    await suite.h.runJobs();
  },
});
