import { beforeAll, expect, test } from 'vitest';
import { PaymentError } from '@hm/domain/payments';
import { ordersSuite, type Market, type Person } from './orders.suite.js';
import { jpeg, tokenOf, uploadPhoto } from './harness.js';

/**
 * The back office's attention list (GET /console/v1/attention, `attention` on the command line): each
 * queue counts its item once the cause happened and no longer once the team worked it; viewers read
 * it; another marketplace's work is never counted and its operators never see this one's.
 */
let refuseNextTransfer = false;
const suite = ordersSuite({
  ports: (local) => ({
    payments: {
      ...local.payments,
      async transfer(req) {
        if (refuseNextTransfer) {
          refuseNextTransfer = false;
          throw new PaymentError('the platform balance is too low (test)', 'refused', 'balance_insufficient');
        }
        return local.payments.transfer(req);
      },
    },
  }),
});
const DAY = 24 * 60 * 60_000;
type Op = { token: string };
let admin: Op;
let viewer: Op;
let stranger: Op;

const call = (method: 'GET' | 'POST', url: string, token?: string, payload?: unknown) =>
  suite.h.app.inject({ method, url, headers: token ? { authorization: `Bearer ${token}` } : {}, ...(payload !== undefined ? { payload: payload as object } : {}) });

/** Signs the three in again (the clock moved past their sessions' 12 hours). */
async function signInAgain() {
  const signIn = async (marketplace: string, email: string) => {
    const res = await call('POST', '/console/v1/sessions', undefined, { marketplace, email, password: 'correct horse battery' });
    expect(res.statusCode, res.body).toBe(201);
    return { token: res.json().token as string };
  };
  admin = await signIn('shop', 'boss@shop.example');
  viewer = await signIn('shop', 'watch@shop.example');
  stranger = await signIn('own', 'boss@own.example');
}

async function operator(slug: string, email: string, role: 'admin' | 'viewer'): Promise<Op> {
  const out = await suite.h.console.operators.create({ marketplace: slug, email, role });
  const res = await call('POST', '/console/v1/invitations/accept', undefined, { token: tokenOf(out.invitation_url), password: 'correct horse battery' });
  expect(res.statusCode, res.body).toBe(200);
  return { token: res.json().token };
}

type Queues = Record<string, { count: number; items: { id?: string; order_id?: string }[] }>;
async function attention(who: Op = viewer): Promise<Queues> {
  const res = await call('GET', '/console/v1/attention?limit=3', who.token);
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json();
  expect(body.total).toBe(Object.values(body.queues as Queues).reduce((n, q) => n + q.count, 0));
  return body.queues;
}
const counts = async (who?: Op) => Object.fromEntries(Object.entries(await attention(who)).map(([k, q]) => [k, q.count]));
const ZERO = {
  listings_pending_approval: 0,
  valuation_requests: 0,
  storage_collections: 0,
  orders_disputed: 0,
  orders_not_sent: 0,
  orders_chargeback: 0,
  payouts_held: 0,
  payouts_failed: 0,
  support_unanswered: 0,
  webhooks_failing: 0,
};

async function draft(m: Market, seller: Person): Promise<string> {
  const created = await suite.call(m, seller, 'POST', '/v1/me/listings', {
    title: 'Teak sideboard',
    description: 'Teak, 1960s.',
    price: { amount: 100000, currency: 'SEK' },
    location: { city: 'Stockholm', country: 'SE', postal_code: '11646' },
    delivery: { pickup: true },
    stock: 1,
  });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().id as string;
  expect((await uploadPhoto(suite.h, m.secret, seller.token, id, await jpeg(800, 600))).statusCode).toBe(202);
  await suite.h.runJobs();
  return id;
}
async function publish(m: Market, seller: Person, id: string, body: Record<string, unknown>, status: string) {
  const res = await suite.call(m, seller, 'POST', `/v1/me/listings/${id}/publish`, body);
  expect([res.statusCode, res.json().status], res.body).toEqual([200, status]);
}
const rules = (slug: string, listings: Record<string, unknown>) =>
  suite.h.console.marketplace.update({ marketplace: slug, settings: { listings: { min_images: 0, require_approval: false, require_category: false, required_terms: [], valuations: true, ...listings } } });
async function readySeller(m: Market, who: Person) {
  expect((await suite.call(m, who, 'POST', '/v1/me/payouts/session', { country: 'SE' })).statusCode).toBe(200);
  expect((await suite.call(m, who, 'POST', '/v1/test-helpers/payouts/account', { status: 'ready' })).statusCode).toBe(200);
  await suite.h.runJobs();
}

beforeAll(async () => {
  admin = await operator('shop', 'boss@shop.example', 'admin');
  viewer = await operator('shop', 'watch@shop.example', 'viewer');
  stranger = await operator('own', 'boss@own.example', 'admin');
});

test('a fresh marketplace has nothing waiting; no session is 401 and an API key is 401', async () => {
  expect(await counts()).toEqual(ZERO);
  expect((await call('GET', '/console/v1/attention')).statusCode).toBe(401);
  expect((await suite.h.app.inject({ method: 'GET', url: '/console/v1/attention', headers: { authorization: `Bearer ${suite.shop.secret}` } })).statusCode).toBe(401);
  const bad = await call('GET', '/console/v1/attention?limit=51', viewer.token);
  expect([bad.statusCode, bad.json().code]).toEqual([422, 'validation_failed']);
});

test('listings: pending approval, valuation requests and storage collections, each counted once it waits and no more once worked', async () => {
  await rules('shop', { require_approval: true });
  await rules('own', { require_approval: true });
  // another marketplace's listing waiting for approval is never counted here
  await publish(suite.own, suite.ownSeller, await draft(suite.own, suite.ownSeller), {}, 'pending_approval');

  const toApprove = await draft(suite.shop, suite.seller);
  await publish(suite.shop, suite.seller, toApprove, {}, 'pending_approval');
  const toValue = await draft(suite.shop, suite.seller);
  await publish(suite.shop, suite.seller, toValue, { ask_valuation: true }, 'pending_valuation');
  let q = await attention();
  expect([q.listings_pending_approval!.count, q.valuation_requests!.count, q.storage_collections!.count]).toEqual([1, 1, 0]);
  expect(q.listings_pending_approval!.items.map((l) => l.id)).toEqual([toApprove]);
  expect(q.valuation_requests!.items.map((l) => l.id)).toEqual([toValue]);
  // the other marketplace's admin sees its own one, never these
  expect((await attention(stranger)).listings_pending_approval).toMatchObject({ count: 1, items: [expect.not.objectContaining({ id: toApprove })] });

  expect((await call('POST', `/console/v1/listings/${toApprove}/approve`, admin.token)).statusCode).toBe(200);
  expect((await call('POST', `/console/v1/listings/${toValue}/offer`, admin.token, { price: { amount: 90000, currency: 'SEK' } })).statusCode).toBe(200);
  q = await attention();
  expect([q.listings_pending_approval!.count, q.valuation_requests!.count]).toEqual([0, 0]);

  // the seller accepts the offer: it waits for approval again
  expect((await suite.call(suite.shop, suite.seller, 'POST', `/v1/me/listings/${toValue}/offer/accept`, {})).statusCode).toBe(200);
  expect((await attention()).listings_pending_approval!.count).toBe(1);
  expect((await call('POST', `/console/v1/listings/${toValue}/deny`, admin.token, { note: 'Not for us.' })).statusCode).toBe(200);

  await rules('shop', { require_approval: false });
  const toStore = await draft(suite.shop, suite.seller);
  await publish(suite.shop, suite.seller, toStore, { wants_storage: true }, 'published');
  q = await attention();
  expect(q.storage_collections).toMatchObject({ count: 1, items: [{ id: toStore }] });
  const site = await suite.h.console.sites.create({ marketplace: 'shop', site: { kind: 'warehouse', name: 'Warehouse', line1: 'Lagervägen 2', postal_code: '12345', city: 'Huddinge', country: 'SE' } });
  await suite.h.console.listings.custody({ id: toStore, custody: 'collecting', site: site.site.id });
  expect(await counts()).toEqual(ZERO);
});

test('orders: paid and not sent after 7 days, disputed, with a chargeback (its payout held); a failed payout', async () => {
  const { shop, seller, buyer } = suite;
  await readySeller(shop, seller);
  const listing = await suite.listing(shop, seller, { delivery: { pickup: true } });
  const paidAt = suite.h.clock.now().getTime();
  const id = await suite.purchased(shop, buyer, { listing_id: listing, delivery: { method: 'pickup' } });
  suite.h.clock.set(new Date(paidAt + 7 * DAY - 60_000).toISOString());
  await signInAgain();
  expect((await counts()).orders_not_sent).toBe(0);
  suite.h.clock.set(new Date(paidAt + 7 * DAY + 60_000).toISOString());
  await signInAgain();
  expect((await attention()).orders_not_sent).toMatchObject({ count: 1, items: [{ id }] });
  expect((await suite.move(shop, seller, id, 'mark-delivered')).statusCode).toBe(200);
  expect((await counts()).orders_not_sent).toBe(0);

  expect((await suite.move(shop, buyer, id, 'dispute', { reason: 'Not as described.' })).statusCode).toBe(200);
  expect((await attention()).orders_disputed).toMatchObject({ count: 1, items: [{ id }] });
  expect((await call('POST', `/console/v1/orders/${id}/transitions`, admin.token, { transition: 'resolve-received' })).statusCode).toBe(200);
  await suite.h.runJobs();
  expect((await counts()).orders_disputed).toBe(0);

  // a chargeback before the seller is paid: the order is counted, its payout is held
  const charged = await suite.purchased(shop, buyer, { listing_id: await suite.listing(shop, seller, { delivery: { pickup: true } }), delivery: { method: 'pickup' } });
  expect((await suite.call(shop, undefined, 'POST', '/v1/test-helpers/payments/dispute', { order_id: charged, status: 'needs_response', reason: 'fraudulent' })).statusCode).toBe(200);
  await suite.h.runJobs();
  expect((await suite.move(shop, buyer, charged, 'mark-received-early')).statusCode).toBe(200);
  await suite.h.runJobs();
  const q = await attention();
  expect(q.orders_chargeback).toMatchObject({ count: 1, items: [{ id: charged }] });
  expect(q.payouts_held).toMatchObject({ count: 1, items: [{ order_id: charged }] });
  expect((await attention(stranger)).orders_chargeback!.count).toBe(0);
  // the bank decides for the seller: the payout is no longer held (the order keeps its chargeback record)
  expect((await suite.call(shop, undefined, 'POST', '/v1/test-helpers/payments/dispute', { order_id: charged, status: 'won', reason: 'fraudulent' })).statusCode).toBe(200);
  await suite.h.runJobs();
  await suite.h.runJobs();
  expect((await counts()).payouts_held).toBe(0);

  // a payout the provider refuses for good: failed, until the team retries it
  const refused = await suite.purchased(shop, buyer, { listing_id: await suite.listing(shop, seller, { delivery: { pickup: true } }), delivery: { method: 'pickup' } });
  refuseNextTransfer = true;
  expect((await suite.move(shop, buyer, refused, 'mark-received-early')).statusCode).toBe(200);
  await suite.h.runJobs();
  expect((await attention()).payouts_failed).toMatchObject({ count: 1, items: [{ order_id: refused }] });
  expect(await suite.h.console.attention({ marketplace: 'shop', limit: 1 })).toMatchObject({ queues: { payouts_failed: { count: 1 } } });
  await suite.h.console.payouts.retry({ marketplace: 'shop', order: refused });
  await suite.h.runJobs();
  expect((await counts()).payouts_failed).toBe(0);
});

test('support: a conversation waiting for the team, until the team answers; webhooks failing or disabled', async () => {
  const conv = await suite.call(suite.shop, suite.buyer2, 'POST', '/v1/me/conversations', { support: true, body: 'Where is my parcel?' });
  expect(conv.statusCode, conv.body).toBe(201);
  const conversation = conv.json().id ?? conv.json().conversation.id;
  expect((await attention()).support_unanswered).toMatchObject({ count: 1, items: [{ id: conversation }] });
  expect((await call('GET', '/console/v1/attention', stranger.token)).json().queues.support_unanswered.count).toBe(0);
  expect((await call('POST', `/console/v1/conversations/${conversation}/messages`, admin.token, { body: 'On its way.' })).statusCode).toBe(201);
  expect((await counts()).support_unanswered).toBe(0);

  const { endpoint } = await suite.h.console.webhooks.create({ marketplace: 'shop', url: 'https://hooks.example/in', events: '*' });
  expect((await counts()).webhooks_failing).toBe(0);
  await suite.h.console.webhooks.update({ marketplace: 'shop', id: endpoint.id, enabled: false });
  expect((await attention()).webhooks_failing).toMatchObject({ count: 1, items: [{ id: endpoint.id, status: 'disabled' }] });
  await suite.h.console.webhooks.update({ marketplace: 'shop', id: endpoint.id, enabled: true });
  expect((await counts()).webhooks_failing).toBe(0);
});
