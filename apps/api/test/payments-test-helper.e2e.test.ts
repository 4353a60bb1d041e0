import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeMarketplace, signUp, startHarness, type Harness } from './harness.js';

/**
 * `POST /v1/test-helpers/payments/confirm` with the local sandbox: the sandbox's events take the
 * path a webhook's do (stored once by event id, handled by the `handle-payment-event` job).
 */
let h: Harness;
let shop: Awaited<ReturnType<typeof makeMarketplace>>;
let other: Awaited<ReturnType<typeof makeMarketplace>>;
beforeAll(async () => {
  h = await startHarness();
  shop = await makeMarketplace(h, 'shop');
  other = await makeMarketplace(h, 'other');
});
afterAll(() => h.close());

const confirm = (key: string, payload: unknown) => h.request({ method: 'POST', url: '/v1/test-helpers/payments/confirm', key, payload: payload as object });
const newPayment = (marketplaceId: string, amount = 2500) => {
  const orderId = crypto.randomUUID();
  return h.payments.createPayment({ id: orderId, orderId, marketplaceId, amount, currency: 'SEK' });
};
const storedEvents = () =>
  h.orm.em
    .getConnection()
    .execute<{ provider_event_id: string; type: string; order_id: string; handled_at: string | null; outcome: string | null }[]>(`select provider_event_id, type, order_id, handled_at, outcome from payment_events order by created_at, provider_event_id`);

describe('confirm a sandbox payment', () => {
  test('succeeded: the event is stored, then handled by the job; a second confirmation is 409 and stores nothing', async () => {
    const { clientSecret } = await newPayment(shop.marketplace.id);
    const before = (await storedEvents()).length;
    const res = await confirm(shop.secret, { client_secret: clientSecret, outcome: 'succeeded' });
    expect(res.statusCode).toBe(200);
    const [event] = res.json().events;
    expect(res.json().events).toEqual([{ id: expect.stringMatching(/^evt_[0-9a-f]+$/), type: 'payment_intent.succeeded' }]);
    const stored = (await storedEvents()).filter((e) => e.provider_event_id === event.id);
    expect(stored).toEqual([expect.objectContaining({ type: 'payment_intent.succeeded', handled_at: null })]);

    await h.runJobs();
    const [handled] = (await storedEvents()).filter((e) => e.provider_event_id === event.id);
    expect(handled!.handled_at).not.toBeNull();
    expect(handled!.outcome).toMatch(/^confirm-payment queued for order /);

    const again = await confirm(shop.secret, { client_secret: clientSecret, outcome: 'succeeded' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'conflict', detail: expect.stringContaining('already succeeded') });
    expect(await storedEvents()).toHaveLength(before + 1);
  });

  test('failed, then succeeded: two events, the order’s payment stays payable after a decline', async () => {
    const { clientSecret } = await newPayment(shop.marketplace.id);
    const failed = await confirm(shop.secret, { client_secret: clientSecret, outcome: 'failed' });
    expect(failed.json().events.map((e: { type: string }) => e.type)).toEqual(['payment_intent.payment_failed']);
    const paid = await confirm(shop.secret, { client_secret: clientSecret, outcome: 'succeeded' });
    expect(paid.json().events.map((e: { type: string }) => e.type)).toEqual(['payment_intent.succeeded']);
    await h.runJobs();
    const outcomes = Object.fromEntries((await storedEvents()).map((e) => [e.provider_event_id, e.outcome]));
    expect([outcomes[failed.json().events[0].id], outcomes[paid.json().events[0].id]]).toEqual([
      'recorded: payment failed; the order keeps waiting for payment',
      expect.stringMatching(/^confirm-payment queued for order /),
    ]);
  });

  test('an unknown client secret, or another marketplace’s, is 404 and confirms nothing', async () => {
    const { clientSecret } = await newPayment(other.marketplace.id);
    for (const secret of [clientSecret, 'pi_0123456789abcdef01234567_secret_00', 'nonsense']) {
      const res = await confirm(shop.secret, { client_secret: secret, outcome: 'succeeded' });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    }
    // still payable by its own marketplace
    expect((await confirm(other.secret, { client_secret: clientSecret, outcome: 'succeeded' })).statusCode).toBe(200);
  });

  test('bad input is 422 listing every problem, without echoing the client secret', async () => {
    const res = await confirm(shop.secret, { client_secret: 'x'.repeat(201), outcome: 'maybe', extra: true });
    expect(res.statusCode).toBe(422);
    const errors = res.json().errors.map((e: { location: string; value: unknown }) => [e.location, e.value]);
    expect(errors).toEqual(expect.arrayContaining([['body.client_secret', null], ['body.outcome', 'maybe'], ['body.extra', true]]));
    expect(errors).toHaveLength(3);
    const missing = await confirm(shop.secret, {});
    expect(missing.json().errors.map((e: { location: string }) => e.location).sort()).toEqual(['body.client_secret', 'body.outcome']);
  });

  test('a publishable key may not confirm payments', async () => {
    const { clientSecret } = await newPayment(shop.marketplace.id);
    expect((await confirm(shop.publishable, { client_secret: clientSecret, outcome: 'succeeded' })).statusCode).toBe(403);
  });
});

describe('live deployment', () => {
  let live: Harness;
  beforeAll(async () => {
    live = await startHarness({ mode: 'live' });
  });
  afterAll(() => live.close());

  test('the payment test helper does not exist', async () => {
    const k = await makeMarketplace(live, 'live-shop');
    const res = await live.request({ method: 'POST', url: '/v1/test-helpers/payments/confirm', key: k.secret, payload: { client_secret: 'pi_1_secret_2', outcome: 'succeeded' } });
    expect(res.statusCode).toBe(404);
    expect(await live.orm.em.getConnection().execute(`select 1 from payment_events`)).toEqual([]);
  });

  test('nor do the payout test helpers (dispute, refund, payout account)', async () => {
    const k = await makeMarketplace(live, 'live-payouts');
    const { token } = await signUp(live, k.secret, { email: 'live-seller@example.com', first_name: 'Liv', locale: 'en' });
    const order_id = '0190a000-0000-7000-8000-000000000001';
    const calls = [
      { url: '/v1/test-helpers/payments/dispute', payload: { order_id, status: 'needs_response', reason: 'fraudulent' } },
      { url: '/v1/test-helpers/payments/refund', payload: { order_id, amount: 100 } },
      { url: '/v1/test-helpers/payouts/account', payload: { status: 'ready' }, session: token },
    ];
    for (const c of calls) expect((await live.request({ method: 'POST', key: k.secret, ...c })).statusCode, c.url).toBe(404);
    expect(await live.orm.em.getConnection().execute(`select 1 from payment_events`)).toEqual([]);
  });
});
