import { beforeAll, describe, expect, test } from 'vitest';
import type { Harness } from './harness.js';
import { STOCKHOLM, ordersSuite, type Market, type Person } from './orders.suite.js';

/** Whose orders are whose: their buyer and their seller only; the user's lists, newest first, offset-paged. */
const suite = ordersSuite();
let h: Harness;
let shop: Market;
let own: Market;
let seller: Person;
let buyer: Person;
beforeAll(() => {
  ({ h, shop, own, seller, buyer } = suite);
});

describe('other users’ and marketplaces’ orders are 404', () => {
  test('to another user of the marketplace and to users of another marketplace, on every order endpoint', async () => {
    const id = await suite.purchased(shop, buyer, { listing_id: await suite.listing(shop, seller), delivery: { method: 'shipping', address: STOCKHOLM } });
    const calls = (m: Market, who: Person) => [
      suite.call(m, who, 'GET', `/v1/me/orders/${id}`),
      suite.call(m, who, 'GET', `/v1/me/orders/${id}/delivery-booking`),
      suite.call(m, who, 'PUT', `/v1/me/orders/${id}/delivery-booking`, { date: '2031-03-05', window: 'am' }),
      suite.move(m, who, id, 'mark-received-early'),
      suite.move(m, who, id, 'mark-delivered'),
    ];
    for (const res of await Promise.all([...calls(shop, suite.buyer2), ...calls(own, suite.ownBuyer), ...calls(own, suite.ownSeller)])) {
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json()).toMatchObject({ code: 'not_found', detail: 'This order was not found.' });
    }
    expect((await suite.call(shop, suite.buyer2, 'GET', '/v1/me/orders')).json().items).toEqual([]);
    expect((await suite.get(shop, buyer, id)).state).toBe('purchased'); // untouched
  });

  test('a session is needed (401), with a secret key (403)', async () => {
    expect((await suite.call(shop, undefined, 'GET', '/v1/me/orders')).statusCode).toBe(401);
    expect((await h.request({ method: 'POST', url: '/v1/me/orders/quote', key: shop.publishable, session: buyer.token, payload: {} })).statusCode).toBe(403);
  });
});

describe('GET /v1/me/orders', () => {
  test('as buyer (default) or seller, newest first, by state, paged by limit and offset', async () => {
    const listing = await suite.listing(shop, seller, { stock: 10 });
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      h.clock.advance(1000);
      ids.push((await suite.placed(shop, suite.buyer2, { listing_id: listing, delivery: { method: 'pickup' } })).order.id);
    }
    h.clock.advance(1000);
    const paid = await suite.purchased(shop, suite.buyer2, { listing_id: listing, delivery: { method: 'pickup' } });
    const list = async (who: Person, query: string) => {
      const res = await suite.call(shop, who, 'GET', `/v1/me/orders${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().items.map((o: { id: string }) => o.id);
    };
    expect(await list(suite.buyer2, '')).toEqual([paid, ...ids.reverse()]);
    expect(await list(suite.buyer2, '?limit=2')).toEqual([paid, ids[0]]);
    expect(await list(suite.buyer2, '?limit=2&offset=2')).toEqual(ids.slice(1, 3));
    expect(await list(suite.buyer2, '?offset=5')).toEqual([]);
    expect(await list(suite.buyer2, '?state=purchased')).toEqual([paid]);
    expect(await list(suite.buyer2, '?state=pending_payment&as=buyer')).toEqual(ids);
    expect((await list(seller, '?as=seller&limit=100')).slice(0, 5)).toEqual([paid, ...ids]);
    expect(await list(seller, '')).toEqual([]); // the seller bought nothing
    const seen = (await suite.call(shop, seller, 'GET', '/v1/me/orders?as=seller&state=purchased')).json().items[0];
    expect(seen).toMatchObject({ id: paid, available_transitions: ['mark-delivered'] });

    const bad = await suite.call(shop, suite.buyer2, 'GET', '/v1/me/orders?limit=0&offset=10001&as=team&state=lost');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.map((e: { location: string }) => e.location).sort()).toEqual(['query.as', 'query.limit', 'query.offset', 'query.state']);
  });
});
