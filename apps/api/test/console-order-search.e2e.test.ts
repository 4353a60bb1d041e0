import { beforeAll, expect, test } from 'vitest';
import { ordersSuite } from './orders.suite.js';
import { tokenOf } from './harness.js';

/**
 * Finding orders in the back office (GET /console/v1/orders, `orders list` on the command line: one
 * filter definition): by buyer and seller (their id, or their email address in any case) and by
 * listing; an address nobody of this marketplace has finds nothing, and another marketplace's team
 * finds none of this one's orders whatever it names. The order itself carries its ledger rows.
 */
const suite = ordersSuite();
type Op = { token: string };
let admin: Op;
let viewer: Op;
let stranger: Op;
let first: { id: string; listing: string };
let second: { id: string; listing: string };

const call = (url: string, token?: string) => suite.h.app.inject({ method: 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {} });

async function operator(slug: string, email: string, role: 'admin' | 'viewer'): Promise<Op> {
  const out = await suite.h.console.operators.create({ marketplace: slug, email, role });
  const res = await suite.h.app.inject({ method: 'POST', url: '/console/v1/invitations/accept', payload: { token: tokenOf(out.invitation_url), password: 'correct horse battery' } });
  expect(res.statusCode, res.body).toBe(200);
  return { token: res.json().token };
}

/** The ids of the orders a search finds (200 expected). */
async function found(query: string, who: Op = admin): Promise<string[]> {
  const res = await call(`/console/v1/orders?${query}`, who.token);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().items as { id: string }[]).map((o) => o.id);
}

beforeAll(async () => {
  admin = await operator('shop', 'boss@shop.example', 'admin');
  viewer = await operator('shop', 'watch@shop.example', 'viewer');
  stranger = await operator('own', 'boss@own.example', 'admin');
  const { shop, seller, buyer, buyer2 } = suite;
  const a = await suite.listing(shop, seller, { delivery: { pickup: true } });
  first = { id: await suite.purchased(shop, buyer, { listing_id: a, delivery: { method: 'pickup' } }), listing: a };
  const b = await suite.listing(shop, seller, { delivery: { pickup: true } });
  second = { id: await suite.purchased(shop, buyer2, { listing_id: b, delivery: { method: 'pickup' } }), listing: b };
});

test('by buyer: id or email address (any case); by seller; by listing; combined', async () => {
  const { buyer, buyer2, seller } = suite;
  expect(await found(`buyer=${buyer.id}`)).toEqual([first.id]);
  expect(await found(`buyer=${encodeURIComponent(buyer2.email.toUpperCase())}`)).toEqual([second.id]);
  expect(await found(`seller=${encodeURIComponent(seller.email)}`)).toEqual([second.id, first.id]);
  expect(await found(`seller=${seller.id}`)).toEqual([second.id, first.id]);
  expect(await found(`listing=${second.listing}`)).toEqual([second.id]);
  expect(await found(`seller=${seller.id}&buyer=${buyer.id}&listing=${first.listing}`)).toEqual([first.id]);
  // the buyer of one order with the other's listing: none
  expect(await found(`buyer=${buyer.id}&listing=${second.listing}`)).toEqual([]);
  // a buyer who sold nothing is no seller; an address nobody here has finds nothing (not every order)
  expect(await found(`seller=${buyer.id}`)).toEqual([]);
  expect(await found(`buyer=${encodeURIComponent('nobody@example.com')}`)).toEqual([]);
  // with the state filter as before
  expect(await found(`state=purchased&buyer=${buyer.id}`)).toEqual([first.id]);
  expect(await found(`state=canceled&buyer=${buyer.id}`)).toEqual([]);
});

test('a viewer searches too; another marketplace finds nothing of this one, by id or by email', async () => {
  const { buyer, seller, ownBuyer } = suite;
  expect(await found(`buyer=${encodeURIComponent(buyer.email)}`, viewer)).toEqual([first.id]);
  expect(await found(`buyer=${buyer.id}`, stranger)).toEqual([]);
  expect(await found(`seller=${encodeURIComponent(seller.email)}`, stranger)).toEqual([]);
  expect(await found(`listing=${first.listing}`, stranger)).toEqual([]);
  // this marketplace's team does not find another's user by their address
  expect(await found(`buyer=${encodeURIComponent(ownBuyer.email)}`)).toEqual([]);
});

test('a value that is no id or address is a 422 problem listing each wrong field', async () => {
  const res = await call(`/console/v1/orders?buyer=nobody&seller=${'x'.repeat(255)}&listing=42`, admin.token);
  expect(res.statusCode, res.body).toBe(422);
  const locations = (res.json().errors as { location: string }[]).map((e) => e.location).sort();
  expect(locations).toEqual(['query.buyer', 'query.listing', 'query.seller']);
  expect((await call(`/console/v1/orders?buyer=${suite.buyer.id}`)).statusCode).toBe(401);
});

test('the order carries its ledger rows, read-only, oldest first; the list leaves them out', async () => {
  const res = await call(`/console/v1/orders/${first.id}`, viewer.token);
  expect(res.statusCode, res.body).toBe(200);
  const order = res.json().order;
  expect(order.ledger).toEqual([expect.objectContaining({ kind: 'charge', amount: order.total, currency: order.currency, reference: expect.any(String), created_at: expect.any(String), id: expect.any(String) })]);
  const listed = (await call(`/console/v1/orders?buyer=${suite.buyer.id}`, admin.token)).json().items[0];
  expect(listed.ledger).toBeUndefined();
  expect((await call(`/console/v1/orders/${first.id}`, stranger.token)).statusCode).toBe(404);
});
