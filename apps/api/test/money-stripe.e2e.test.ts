import { expect } from 'vitest';
import { moneyScenarios } from './money.suite.js';
import { ACCOUNT_READY, stripeOrdersSuite } from './stripe-suite.js';

/**
 * The money rules against Stripe (money.suite.ts): the real `stripe` package against the local
 * Stripe-speaking server, whose signed webhooks reach this API; refunds made as in Stripe's
 * dashboard, disputes as Stripe opens and closes them.
 */
const { stripe, suite, dashboard, paymentOf } = await stripeOrdersSuite('money');

let n = 0;
async function settle() {
  for (let i = 0; i < 3; i++) {
    const deliveries = await stripe.settled();
    expect(deliveries.every((d) => d.status === 200)).toBe(true);
    await suite.h.runJobs();
  }
}

moneyScenarios({
  suite,
  async onboarded() {
    stripe.updateAccount(stripe.accountSessions.at(-1)!.account as string, ACCOUNT_READY);
    await settle();
  },
  async refundOutside(orderId, amount) {
    await dashboard.refund({ id: `dashboard-${orderId}-${++n}`, paymentId: await paymentOf(orderId), amount });
    await settle();
  },
  async dispute(orderId, status) {
    const payment = await paymentOf(orderId);
    const type = status === 'needs_response' ? 'charge.dispute.created' : 'charge.dispute.closed';
    stripe.emit(type, { id: `dp_${orderId.replaceAll('-', '')}`, object: 'dispute', payment_intent: payment, charge: stripe.paymentIntent(payment)!.latest_charge, reason: 'fraudulent', status, amount: 100_000, currency: 'sek' });
    await settle();
  },
  async keptBySeller(orderId) {
    return stripe.transfers.filter((t) => t.transfer_group === orderId).reduce((sum, t) => sum + Number(t.amount) - Number(t.amount_reversed), 0);
  },
  settle,
});
