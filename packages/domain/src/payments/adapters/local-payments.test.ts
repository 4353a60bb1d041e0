import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { localPayments } from './local-payments.js';

const marketplaceId = '0190a000-0000-7000-8000-000000000001';
const newRequest = (amount = 1000) => {
  const orderId = crypto.randomUUID();
  return { id: orderId, orderId, marketplaceId, amount, currency: 'EUR' };
};
/** Two sandboxes on one folder: the API and the worker are separate processes sharing DATA_DIR. */
const twoProcesses = () => {
  const dir = path.join(mkdtempSync(path.join(tmpdir(), 'hm-sandbox-')), 'payments');
  return [localPayments(dir), localPayments(dir)] as const;
};

test('concurrent creates of one id from two processes make one payment', async () => {
  const [api, worker] = twoProcesses();
  const req = newRequest();
  const made = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? api : worker).createPayment(req)));
  expect(new Set(made.map((m) => m.clientSecret)).size).toBe(1);
});

test('a confirmation racing a cancellation: exactly one of them takes effect', async () => {
  const [api, worker] = twoProcesses();
  for (let round = 0; round < 10; round++) {
    const { providerId, clientSecret } = await api.createPayment(newRequest());
    const [confirmed] = await Promise.allSettled([api.confirmForTest(clientSecret, 'succeeded', marketplaceId), worker.cancelPayment(providerId)]);
    // a canceled payment cannot be refunded; a succeeded one can
    const refund = await worker.refund({ id: crypto.randomUUID(), paymentId: providerId }).then(
      () => 'refunded',
      (e: { kind: string }) => e.kind,
    );
    if (confirmed.status === 'fulfilled') expect([confirmed.value!.map((e) => e.type), refund]).toEqual([['payment_intent.succeeded'], 'refunded']);
    else expect([(confirmed.reason as { kind: string }).kind, refund]).toEqual(['unexpected_state', 'unexpected_state']);
  }
});

test('concurrent refunds never add up to more than the payment', async () => {
  const [api, worker] = twoProcesses();
  const { providerId, clientSecret } = await api.createPayment(newRequest(1000));
  await api.confirmForTest(clientSecret, 'succeeded', marketplaceId);
  const tries = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => (i % 2 ? api : worker).refund({ id: crypto.randomUUID(), paymentId: providerId, amount: 300 })));
  expect(tries.filter((t) => t.status === 'fulfilled')).toHaveLength(3);
  expect(tries.filter((t) => t.status === 'rejected').map((t) => (t as PromiseRejectedResult).reason.kind)).toEqual(['refused', 'refused', 'refused', 'refused', 'refused']);
});

test('payments outlive the process: a new sandbox on the same folder knows them', async () => {
  const dir = path.join(mkdtempSync(path.join(tmpdir(), 'hm-sandbox-')), 'payments');
  const req = newRequest();
  const first = await localPayments(dir).createPayment(req);
  const restarted = localPayments(dir);
  expect(await restarted.createPayment(req)).toEqual(first);
  expect((await restarted.confirmForTest(first.clientSecret, 'succeeded', marketplaceId))!.map((e) => e.data.amount)).toEqual([1000]);
});
