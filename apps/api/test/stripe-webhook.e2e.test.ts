import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { STRIPE_API_VERSION } from '@hm/domain/payments';
import { makeMarketplace, signUp, startHarness, type Harness } from './harness.js';
import { stripeServer } from './stripe-suite.js';

/**
 * Payments through Stripe end to end, with the real `stripe` package against a local server that
 * speaks Stripe's API and delivers signed webhooks to this API listening on a port: the test helper
 * confirms the PaymentIntent with a test card, Stripe's webhook brings the event to
 * `POST /webhooks/stripe`, it is stored once and handled by the job.
 */
const { stripe, secret: SECRET, connectSecret: CONNECT_SECRET, harness, listen } = await stripeServer('webhook');
let h: Harness;
let shop: Awaited<ReturnType<typeof makeMarketplace>>;

beforeAll(async () => {
  h = await startHarness(harness);
  await listen(h);
  shop = await makeMarketplace(h);
});
afterAll(() => h.close());

const sign = (payload: string, secret = SECRET, t = Math.floor(Date.now() / 1000)) => `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${payload}`).digest('hex')}`;
const post = (payload: string, signature?: string, url = '/webhooks/stripe') =>
  h.request({ method: 'POST', url, headers: { 'content-type': 'application/json', ...(signature !== undefined && { 'stripe-signature': signature }) }, payload });
const rows = () =>
  h.orm.em
    .getConnection()
    .execute<{ provider_event_id: string; provider: string; type: string; marketplace_id: string | null; order_id: string | null; payment_id: string | null; outcome: string | null }[]>(
      `select provider_event_id, provider, type, marketplace_id, order_id, payment_id, outcome from payment_events order by provider_created_at, provider_event_id`,
    );
const jobsFor = async (eventId: string) =>
  (await h.orm.em.getConnection().execute<{ n: number }[]>(`select count(*)::int as n from graphile_worker.jobs j join payment_events e on j.key = 'handle-payment-event:' || e.id where e.provider_event_id = ?`, [eventId]))[0]!.n;
const newPayment = async (amount = 1500) => {
  const orderId = crypto.randomUUID();
  return { orderId, ...(await h.payments.createPayment({ id: orderId, orderId, marketplaceId: shop.marketplace.id, amount, currency: 'EUR' })) };
};

describe('Stripe confirmations arrive through the signed webhook', () => {
  test('test helper → PaymentIntent confirmed with a test card → webhook → stored with its marketplace and order → handled by the job', async () => {
    const orderId = crypto.randomUUID();
    const { providerId, clientSecret } = await h.payments.createPayment({ id: orderId, orderId, marketplaceId: shop.marketplace.id, amount: 4200, currency: 'SEK' });
    const res = await h.request({ method: 'POST', url: '/v1/test-helpers/payments/confirm', key: shop.secret, payload: { client_secret: clientSecret, outcome: 'succeeded' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ events: [] }); // Stripe's events come by webhook
    const deliveries = await stripe.settled();
    expect(deliveries.at(-1)).toMatchObject({ type: 'payment_intent.succeeded', status: 200 });

    const stored = (await rows()).filter((r) => r.payment_id === providerId);
    expect(stored).toEqual([{ provider_event_id: deliveries.at(-1)!.eventId, provider: 'stripe', type: 'payment_intent.succeeded', marketplace_id: shop.marketplace.id, order_id: orderId, payment_id: providerId, outcome: null }]);
    await h.runJobs();
    expect((await rows()).find((r) => r.payment_id === providerId)!.outcome).toMatch(/^confirm-payment queued for order /);
    // the event is kept for the payouts work, without the buyer's client secret
    const [data] = await h.orm.em.getConnection().execute<{ data: Record<string, unknown> }[]>(`select data from payment_events where payment_id = ?`, [providerId]);
    expect(data!.data).toMatchObject({ id: providerId, amount: 4200, currency: 'sek', status: 'succeeded' });
    expect(data!.data).not.toHaveProperty('client_secret');
  });

  test('a declined card: 200 from the helper, payment_intent.payment_failed through the webhook', async () => {
    const { clientSecret, providerId } = await newPayment();
    const res = await h.request({ method: 'POST', url: '/v1/test-helpers/payments/confirm', key: shop.secret, payload: { client_secret: clientSecret, outcome: 'failed' } });
    expect(res.statusCode).toBe(200);
    await stripe.settled();
    expect((await rows()).filter((r) => r.payment_id === providerId).map((r) => r.type)).toEqual(['payment_intent.payment_failed']);
  });

  test('a replayed delivery answers 200, is stored once and adds no second job', async () => {
    const { clientSecret, providerId } = await newPayment();
    await h.payments.confirmForTest(clientSecret, 'succeeded', shop.marketplace.id);
    const [first] = (await stripe.settled()).filter((d) => d.type === 'payment_intent.succeeded').slice(-1);
    stripe.redeliver(first!.eventId);
    const again = (await stripe.settled()).at(-1)!;
    expect(again).toMatchObject({ eventId: first!.eventId, status: 200 });
    const event = stripe.events.find((e) => e.id === first!.eventId)!;
    const direct = await post(event.payload, sign(event.payload));
    expect(direct.json()).toEqual({ received: true, duplicate: true });
    expect((await rows()).filter((r) => r.payment_id === providerId)).toHaveLength(1);
    expect(await jobsFor(first!.eventId)).toBe(1);
    await h.runJobs();
    expect((await rows()).filter((r) => r.payment_id === providerId).map((r) => r.outcome)).toEqual([expect.stringMatching(/^confirm-payment queued for order /)]);
  });

  test('an event type we do not act on is stored and ignored; a dispute naming only the payment joins its order', async () => {
    const { clientSecret, providerId, orderId } = await newPayment();
    await h.payments.confirmForTest(clientSecret, 'succeeded', shop.marketplace.id);
    const unknown = stripe.emit('customer.created', { id: 'cus_1', object: 'customer', metadata: {} });
    const dispute = stripe.emit('charge.dispute.created', { id: 'dp_1', object: 'dispute', payment_intent: providerId, reason: 'fraudulent', status: 'needs_response', metadata: {} });
    const deliveries = await stripe.settled();
    expect(deliveries.filter((d) => [unknown.id, dispute.id].includes(d.eventId)).map((d) => d.status)).toEqual([200, 200]);
    await h.runJobs();
    const byId = Object.fromEntries((await rows()).map((r) => [r.provider_event_id, r]));
    expect(byId[unknown.id]).toMatchObject({ type: 'customer.created', marketplace_id: null, outcome: 'ignored: the event names no marketplace of ours' });
    // the payouts' dispute handler gets it (this payment was made without an order here)
    expect(byId[dispute.id]).toMatchObject({ marketplace_id: shop.marketplace.id, order_id: orderId, outcome: `ignored: no order ${orderId}` });
  });

  test('a refund through the port reaches the webhook as charge.refunded', async () => {
    const { clientSecret, providerId } = await newPayment(2000);
    await h.payments.confirmForTest(clientSecret, 'succeeded', shop.marketplace.id);
    await h.payments.refund({ id: crypto.randomUUID(), paymentId: providerId, amount: 500 });
    await stripe.settled();
    // Stripe's event times are whole seconds: the two may share one, so no order is asserted
    expect((await rows()).filter((r) => r.payment_id === providerId).map((r) => r.type).sort()).toEqual(['charge.refunded', 'payment_intent.succeeded']);
  });
});

describe('Stripe Connect: payout setup follows account.updated through the webhook', () => {
  test('session → a platform-controlled connected account → Stripe updates it → the seller reads action_required, then ready; a late older event changes nothing', async () => {
    const { token } = await signUp(h, shop.secret, { email: 'connect@example.com', first_name: 'Con', locale: 'en' });
    const call = (method: 'GET' | 'POST', url: string, payload?: object) => h.request({ method, url, key: shop.secret, session: token, ...(payload && { payload }) });
    const session = await call('POST', '/v1/me/payouts/session', { country: 'SE' });
    expect(session.statusCode, session.body).toBe(200);
    expect(session.json().client_secret).toBe(stripe.accountSessions.at(-1)!.client_secret);
    const accountId = stripe.accountSessions.at(-1)!.account as string;
    expect(stripe.account(accountId)).toMatchObject({ country: 'SE', business_type: 'individual', capabilities: { transfers: 'inactive' } });

    const requirements = (over: object) => ({ currently_due: [], eventually_due: [], past_due: [], pending_verification: [], ...over });
    stripe.updateAccount(accountId, { details_submitted: true, requirements: requirements({ past_due: ['external_account'] }) });
    await stripe.settled();
    await h.runJobs();
    expect((await call('GET', '/v1/me/payouts')).json()).toEqual({ status: 'action_required', due: ['external_account'] });
    const older = stripe.events.at(-1)!;
    stripe.updateAccount(accountId, { payouts_enabled: true, capabilities: { transfers: 'active' }, requirements: requirements({}) });
    await stripe.settled();
    await h.runJobs();
    expect((await call('GET', '/v1/me/payouts')).json()).toEqual({ status: 'ready', due: [] });
    // an event Stripe made earlier, delivered again late (another id: as if it had been delayed): the status stays
    const stale = JSON.parse(older.payload);
    stale.id = `${stale.id}_late`;
    stale.created -= 60;
    const payload = JSON.stringify(stale);
    expect((await post(payload, sign(payload, CONNECT_SECRET), '/webhooks/stripe/connect')).statusCode).toBe(200);
    await h.runJobs();
    expect((await call('GET', '/v1/me/payouts')).json()).toEqual({ status: 'ready', due: [] });
    // Stripe sent every account.updated to the Connect endpoint only, where it was accepted
    const deliveries = (await stripe.settled()).filter((d) => d.type === 'account.updated');
    expect(deliveries.map((d) => d.status)).toEqual([200, 200]);
    expect(stripe.webhookEndpoints.map((e) => [e.url, e.connect])).toEqual([
      [expect.stringMatching(/\/webhooks\/stripe$/), false],
      [expect.stringMatching(/\/webhooks\/stripe\/connect$/), true],
    ]);
  });
});

describe('two endpoints, two secrets: the platform route and the Connect route', () => {
  const accountEvent = (id: string, account = 'acct_seller_1') =>
    JSON.stringify({ id, object: 'event', api_version: STRIPE_API_VERSION, type: 'account.updated', account, created: Math.floor(Date.now() / 1000), data: { object: { id: account, object: 'account', metadata: { marketplace_id: shop.marketplace.id } } } });
  const platformEvent = (id: string) =>
    JSON.stringify({ id, object: 'event', api_version: STRIPE_API_VERSION, type: 'payment_intent.succeeded', created: Math.floor(Date.now() / 1000), data: { object: { id: 'pi_two', object: 'payment_intent', metadata: { marketplace_id: shop.marketplace.id } } } });
  const stored = async (id: string) => (await rows()).filter((r) => r.provider_event_id === id);

  test('a signed account.updated on /webhooks/stripe/connect with the Connect secret is stored and handled like any event', async () => {
    const payload = accountEvent('evt_connect_ok');
    const res = await post(payload, sign(payload, CONNECT_SECRET), '/webhooks/stripe/connect');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ received: true, duplicate: false });
    expect(await stored('evt_connect_ok')).toEqual([expect.objectContaining({ type: 'account.updated', marketplace_id: shop.marketplace.id })]);
    await h.runJobs();
    expect((await stored('evt_connect_ok'))[0]!.outcome).toBeTruthy();
    // the same delivery again: 200, stored once
    expect((await post(payload, sign(payload, CONNECT_SECRET), '/webhooks/stripe/connect')).json()).toEqual({ received: true, duplicate: true });
  });

  test('an account.updated sent to the wrong route or with the wrong secret → 400, nothing stored', async () => {
    const payload = accountEvent('evt_connect_wrong');
    const cases = {
      // the Connect endpoint's delivery arriving at the platform route: the platform secret does not verify it
      connectSecretOnPlatformRoute: await post(payload, sign(payload, CONNECT_SECRET)),
      // the platform's secret on the Connect route
      platformSecretOnConnectRoute: await post(payload, sign(payload, SECRET), '/webhooks/stripe/connect'),
    };
    for (const res of Object.values(cases)) {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ status: 400, code: 'invalid_signature' });
    }
    // signed with the platform secret, but the event happened on a connected account: that endpoint is registered the wrong way round
    const misrouted = await post(payload, sign(payload, SECRET));
    expect(misrouted.statusCode).toBe(400);
    expect(misrouted.json()).toMatchObject({ code: 'malformed_request', detail: expect.stringContaining('/webhooks/stripe/connect') });
    expect(await stored('evt_connect_wrong')).toEqual([]);
  });

  test('a platform event (no `account`) on the Connect route → 400, even when signed with the Connect secret', async () => {
    const payload = platformEvent('evt_platform_on_connect');
    const res = await post(payload, sign(payload, CONNECT_SECRET), '/webhooks/stripe/connect');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'malformed_request', detail: expect.stringContaining('platform endpoint /webhooks/stripe') });
    expect(await stored('evt_platform_on_connect')).toEqual([]);
    // the same event on its own route with its own secret is taken
    expect((await post(payload, sign(payload))).statusCode).toBe(200);
  });

  test('without STRIPE_CONNECT_WEBHOOK_SECRET the Connect route answers 404 and the platform route still works', async () => {
    const platformOnly = await startHarness({ payments: h.payments, app: { stripeWebhookSecret: SECRET } });
    try {
      const payload = accountEvent('evt_no_connect');
      const res = await platformOnly.request({ method: 'POST', url: '/webhooks/stripe/connect', headers: { 'content-type': 'application/json', 'stripe-signature': sign(payload, CONNECT_SECRET) }, payload });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'not_found', detail: expect.stringContaining('STRIPE_CONNECT_WEBHOOK_SECRET') });
      const other = platformEvent('evt_platform_only');
      expect((await platformOnly.request({ method: 'POST', url: '/webhooks/stripe', headers: { 'content-type': 'application/json', 'stripe-signature': sign(other) }, payload: other })).statusCode).toBe(200);
    } finally {
      await platformOnly.close();
    }
  });
});

describe('webhook signature', () => {
  const payload = JSON.stringify({ id: 'evt_forged', object: 'event', api_version: STRIPE_API_VERSION, type: 'payment_intent.succeeded', created: 1_800_000_000, data: { object: { id: 'pi_x', object: 'payment_intent', metadata: {} } } });

  test('a signed event of another API version is refused with 400 and stored nowhere; the pinned version is accepted', async () => {
    const before = (await rows()).length;
    for (const version of ['2025-01-27.acacia', null]) {
      const other = JSON.stringify({ ...JSON.parse(payload), id: `evt_version_${String(version)}`, api_version: version });
      const res = await post(other, sign(other));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ status: 400, code: 'malformed_request' });
      expect(res.json().detail).toContain(`this service reads ${STRIPE_API_VERSION} only`);
    }
    expect((await rows()).length).toBe(before);
    const pinned = JSON.stringify({ ...JSON.parse(payload), id: 'evt_version_pinned' });
    expect((await post(pinned, sign(pinned))).statusCode).toBe(200);
  });

  test('missing, wrong, for another body or too old → 400 problem, nothing stored', async () => {
    const before = (await rows()).length;
    const cases = [
      await post(payload),
      await post(payload, 'nonsense'),
      await post(payload, sign(payload, 'whsec_someone_else')),
      await post(payload.replace('pi_x', 'pi_y'), sign(payload)),
      await post(payload, sign(payload, SECRET, Math.floor(Date.now() / 1000) - 600)),
    ];
    for (const res of cases) {
      expect(res.statusCode).toBe(400);
      expect(res.headers['content-type']).toBe('application/problem+json');
      expect(res.json()).toMatchObject({ status: 400, code: 'invalid_signature' });
    }
    expect(cases[0]!.json().detail).toBe('The Stripe-Signature header is missing.');
    expect((await rows()).length).toBe(before);
  });

  test('the signature is over the exact bytes: the same JSON re-spaced does not verify', async () => {
    const respaced = JSON.stringify(JSON.parse(payload), null, 2);
    expect((await post(respaced, sign(payload))).statusCode).toBe(400);
    const ok = await post(respaced, sign(respaced));
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ received: true, duplicate: false });
  });

  test('a body over 256 KiB is refused with 413 before it is verified', async () => {
    const big = JSON.stringify({ id: 'evt_big', type: 'x', data: { object: { pad: 'x'.repeat(300_000) } } });
    const res = await post(big, sign(big));
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 'payload_too_large' });
  });
});

describe('payment provider outage', () => {
  test('the test helper answers 503 with Retry-After; the payment is still there to confirm afterwards', async () => {
    const { clientSecret } = await newPayment();
    stripe.failNext(2, 503);
    const res = await h.request({ method: 'POST', url: '/v1/test-helpers/payments/confirm', key: shop.secret, payload: { client_secret: clientSecret, outcome: 'succeeded' } });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json()).toMatchObject({ code: 'service_unavailable', detail: expect.stringContaining('payment provider') });
    const retry = await h.request({ method: 'POST', url: '/v1/test-helpers/payments/confirm', key: shop.secret, payload: { client_secret: clientSecret, outcome: 'succeeded' } });
    expect(retry.statusCode).toBe(200);
  });
});

test('without Stripe configured the route answers 404 problem', async () => {
  const plain = await startHarness();
  try {
    const res = await plain.request({ method: 'POST', url: '/webhooks/stripe', headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=x' }, payload: '{}' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'not_found', detail: expect.stringContaining('STRIPE_WEBHOOK_SECRET') });
  } finally {
    await plain.close();
  }
});

test('the OpenAPI document lists both webhooks at the root, outside /v1, without an API key, each with its event types', async () => {
  const doc = (await h.request({ method: 'GET', url: '/v1/openapi.json' })).json();
  for (const path of ['/webhooks/stripe', '/webhooks/stripe/connect']) {
    const op = doc.paths[path];
    expect(op.servers).toEqual([{ url: 'http://localhost:4000' }]);
    expect(op.post.security).toEqual([]);
    expect(Object.keys(op.post.responses)).toEqual(expect.arrayContaining(['200', '400', '404', '413', '503']));
  }
  expect(doc.paths['/webhooks/stripe'].post.description).toContain('`payment_intent.succeeded`');
  expect(doc.paths['/webhooks/stripe'].post.description).not.toContain('`account.updated`');
  expect(doc.paths['/webhooks/stripe/connect'].post.description).toContain('`account.updated`');
  expect(doc.paths['/webhooks/stripe/connect'].post.description).toContain('STRIPE_CONNECT_WEBHOOK_SECRET');
});
