import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { STRIPE_API_VERSION, STRIPE_MAX_KEYS } from './stripe-payments.js';
import { checkStripeRequestsAfterAll, marketplaceId, request, stripeFixture } from '../../testing/payment-fixtures.js';

/**
 * The Stripe adapter and Stripe's idempotency: a 5xx Stripe stored under a key never blocks an
 * object for 24 hours (the next call walks on to a new key), and nothing is made twice when the
 * 5xx came after Stripe did the work (found by our ids). Requests checked against Stripe's spec.
 */
checkStripeRequestsAfterAll();

describe('stripe adapter: a stored 5xx never blocks an object for 24 hours, and nothing is made twice', () => {
  let f: Awaited<ReturnType<typeof stripeFixture>>;
  beforeAll(async () => {
    f = await stripeFixture();
  });
  afterAll(async () => f.close?.());
  const keysOf = (prefix: string) => f.server.requests.filter((r) => r.idempotencyKey?.startsWith(prefix)).map((r) => [r.idempotencyKey, r.status, r.replayed]);
  async function readyAccount() {
    const { providerId } = await f.payments.createAccount({ id: crypto.randomUUID(), marketplaceId, userId: crypto.randomUUID(), country: 'SE', businessType: 'individual' });
    await f.onboard(providerId);
    return providerId;
  }
  async function paidOrder(amount = 10_000, currency = 'SEK') {
    const req = request({ amount, currency });
    const { providerId, clientSecret } = await f.payments.createPayment(req);
    await f.confirm(clientSecret, 'succeeded', marketplaceId);
    return { ...req, paymentId: providerId };
  }

  test('the test server stores a 500 under its key and replays it (Stripe-Should-Retry: false); a key reused with other parameters is an idempotency error; a 429 is stored nowhere', async () => {
    const key = `probe-${crypto.randomUUID()}`;
    const post = (body: string) => fetch(`${f.server.url}/v1/payment_intents`, { method: 'POST', headers: { authorization: `Bearer ${f.server.apiKey}`, 'idempotency-key': key, 'content-type': 'application/x-www-form-urlencoded' }, body });
    f.server.failNext(1, 500);
    const first = await post('amount=100&currency=sek');
    expect(first.status).toBe(500);
    const again = await post('amount=100&currency=sek');
    expect([again.status, again.headers.get('idempotent-replayed'), again.headers.get('stripe-should-retry')]).toEqual([500, 'true', 'false']);
    expect(await again.json()).toEqual(await first.json());
    const other = await post('amount=101&currency=sek');
    expect(other.status).toBe(400);
    expect(((await other.json()) as { error: { type: string } }).error.type).toBe('idempotency_error');
    const limited = `probe-${crypto.randomUUID()}`;
    f.server.failNext(1, 429);
    const send = () => fetch(`${f.server.url}/v1/payment_intents`, { method: 'POST', headers: { authorization: `Bearer ${f.server.apiKey}`, 'idempotency-key': limited, 'content-type': 'application/x-www-form-urlencoded' }, body: 'amount=100&currency=sek' });
    expect((await send()).status).toBe(429);
    const after = await send();
    expect([after.status, after.headers.get('idempotent-replayed')]).toEqual([200, null]);
  });

  test('a payment: a 500 fails the call (retryable); the next call walks past the stored 500 under a new key and makes one PaymentIntent', async () => {
    const req = request();
    f.server.failNext(1, 500);
    expect(await f.payments.createPayment(req).catch((e: unknown) => e)).toMatchObject({ name: 'PaymentError', retryable: true });
    const made = await f.payments.createPayment(req);
    expect(await f.payments.createPayment(req)).toEqual(made);
    expect(keysOf(`payment-${req.id}`)).toEqual([
      [`payment-${req.id}`, 500, false],
      [`payment-${req.id}`, 500, true],
      [`payment-${req.id}~2`, 200, false],
      [`payment-${req.id}`, 500, true],
      [`payment-${req.id}~2`, 200, true],
    ]);
  });

  test('a transfer whose 500 came after Stripe made it: the next call finds it by the transfer group and makes no second one', async () => {
    const destination = await readyAccount();
    const order = await paidOrder();
    const transfer = { id: order.orderId, marketplaceId, orderId: order.orderId, destination, amount: 9000, currency: 'SEK', paymentId: order.paymentId };
    const before = f.server.transfers.length;
    f.server.failNext(1, 500, { afterWork: true, on: 'POST /v1/transfers' });
    expect(await f.payments.transfer(transfer).catch((e: unknown) => e)).toMatchObject({ name: 'PaymentError', kind: 'unavailable', retryable: true });
    expect(f.server.transfers.length).toBe(before + 1); // made, though the answer was a 500
    const found = await f.payments.transfer(transfer);
    expect(found.providerId).toBe(f.server.transfers.at(-1)!.id);
    expect(f.server.transfers.length).toBe(before + 1);
    expect(keysOf(`transfer-${order.orderId}`).map(([key]) => key)).toEqual([`transfer-${order.orderId}`, `transfer-${order.orderId}`]); // no new key was needed
  });

  test('a transfer reversal whose 500 came after Stripe made it: the next call finds it on the transfer by our reversal id and makes no second one', async () => {
    const destination = await readyAccount();
    const order = await paidOrder();
    const { providerId: transferId } = await f.payments.transfer({ id: order.orderId, marketplaceId, orderId: order.orderId, destination, amount: 9000, currency: 'SEK', paymentId: order.paymentId });
    const reversal = { id: `${order.orderId}-r`, marketplaceId, orderId: order.orderId, transferId, amount: 2500 };
    f.server.failNext(1, 500, { afterWork: true, on: `POST /v1/transfers/${transferId}/reversals` });
    expect(await f.payments.reverseTransfer(reversal).catch((e: unknown) => e)).toMatchObject({ name: 'PaymentError', retryable: true });
    const transfer = () => f.server.transfers.find((t) => t.id === transferId)!;
    expect(transfer().amount_reversed).toBe(2500); // made, though the answer was a 500
    const found = await f.payments.reverseTransfer(reversal);
    expect(found.providerId).toBe((transfer().reversals as { data: { id: string }[] }).data[0]!.id);
    expect(transfer().amount_reversed).toBe(2500);
    // a 500 before any work: the next call makes it under the next key, once
    const second = { ...reversal, id: `${order.orderId}-r2`, amount: 1000 };
    f.server.failNext(1, 503, { on: `POST /v1/transfers/${transferId}/reversals` });
    expect(await f.payments.reverseTransfer(second).catch((e: unknown) => e)).toMatchObject({ retryable: true });
    await f.payments.reverseTransfer(second);
    expect(await f.payments.reverseTransfer(second)).toEqual(await f.payments.reverseTransfer(second));
    expect(transfer().amount_reversed).toBe(3500);
  });

  test('a transfer whose 500 came before any work: one transfer under the next key, on the next call', async () => {
    const destination = await readyAccount();
    const order = await paidOrder();
    const transfer = { id: order.orderId, marketplaceId, orderId: order.orderId, destination, amount: 9000, currency: 'SEK', paymentId: order.paymentId };
    const before = f.server.transfers.length;
    f.server.failNext(1, 503, { on: 'POST /v1/transfers' });
    expect(await f.payments.transfer(transfer).catch((e: unknown) => e)).toMatchObject({ retryable: true });
    const made = await f.payments.transfer(transfer);
    expect(f.server.transfers.length).toBe(before + 1);
    expect(await f.payments.transfer(transfer)).toEqual(made);
    expect(f.server.transfers.length).toBe(before + 1);
    expect(f.server.transfers.at(-1)).toMatchObject({ id: made.providerId, amount: 9000, transfer_group: order.orderId });
  });

  test('a refund: 500s on three calls in a row, then one refund (found after a 500 that came after the work); never two', async () => {
    const order = await paidOrder(6000);
    const id = crypto.randomUUID();
    f.server.failNext(1, 500, { on: 'POST /v1/refunds' });
    expect(await f.payments.refund({ id, paymentId: order.paymentId, amount: 2000 }).catch((e: unknown) => e)).toMatchObject({ retryable: true });
    // the next call walks past the stored 500 (key 1), looks for the refund (none) and fails fresh on
    // key 2 (a fault meets each request in turn: the replay of key 1 takes the first, as at Stripe)
    f.server.failNext(2, 500, { on: 'POST /v1/refunds' });
    expect(await f.payments.refund({ id, paymentId: order.paymentId, amount: 2000 }).catch((e: unknown) => e)).toMatchObject({ retryable: true });
    // key 3 is made, but its answer is lost to a 500
    f.server.failNext(3, 500, { afterWork: true, on: 'POST /v1/refunds' });
    expect(await f.payments.refund({ id, paymentId: order.paymentId, amount: 2000 }).catch((e: unknown) => e)).toMatchObject({ retryable: true });
    const refund = await f.payments.refund({ id, paymentId: order.paymentId, amount: 2000 });
    expect(refund.providerId).toMatch(/^re_/);
    expect(await f.payments.refund({ id, paymentId: order.paymentId, amount: 2000 })).toEqual(refund);
    // one refund of 2000: 4000 is left, so 4001 more is refused
    expect(await f.payments.refund({ id: crypto.randomUUID(), paymentId: order.paymentId, amount: 4001 }).catch((e: unknown) => e)).toMatchObject({ retryable: false });
    expect(f.server.requests.filter((r) => r.path === '/v1/refunds' && r.method === 'POST' && !r.replayed).map((r) => [r.idempotencyKey, r.status])).toEqual([
      [`refund-${id}`, 500],
      [`refund-${id}~2`, 500],
      [`refund-${id}~3`, 500],
      [expect.any(String), 400], // the 4001 refused
    ]);
  });

  test(`a key walk is bounded (${STRIPE_MAX_KEYS} keys), and every request says the pinned API version`, async () => {
    const seen = f.server.requests.length;
    const req = request();
    f.server.failNext(1, 500);
    await f.payments.createPayment(req).catch(() => undefined);
    await f.payments.createPayment(req);
    const sent = f.server.requests.slice(seen);
    expect(sent.map((r) => r.idempotencyKey)).toEqual([`payment-${req.id}`, `payment-${req.id}`, `payment-${req.id}~2`]);
    expect(sent.every((r) => r.stripeVersion === STRIPE_API_VERSION)).toBe(true);
    expect(STRIPE_MAX_KEYS).toBeGreaterThan(25); // graphile-worker's retries of a job
  });
});
