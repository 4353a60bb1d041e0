import { beforeAll, describe, expect, test } from 'vitest';
import { signUp, type Harness } from './harness.js';
import { ordersSuite, type Market, type Person } from './orders.suite.js';

/** No oversell: many buyers place at once; exactly the stock is sold, the rest are 409. */
const suite = ordersSuite({ poolMax: 12 });
let h: Harness;
let shop: Market;
let seller: Person;
const buyers: string[] = [];
beforeAll(async () => {
  ({ h, shop, seller } = suite);
  for (let i = 0; i < 10; i++) buyers.push((await signUp(h, shop.secret, { email: `rush${i}@example.com` })).token);
});

async function rush(stock: number) {
  const listing = await suite.listing(shop, seller, { stock });
  const results = await Promise.all(
    Array.from({ length: 100 }, (_x, i) => h.request({ method: 'POST', url: '/v1/me/orders', key: shop.secret, session: buyers[i % buyers.length], payload: { listing_id: listing, delivery: { method: 'pickup' } } })),
  );
  const statuses = results.map((r) => r.statusCode);
  const mine = (await suite.call(shop, seller, 'GET', `/v1/me/listings/${listing}`)).json();
  const orders = (await h.console.orders.list({ marketplace: 'shop', limit: 1000 })).items.filter((o: { listing_id: string }) => o.listing_id === listing);
  return { statuses, results, listing, stock: mine.stock, status: mine.status, orders };
}

describe('100 concurrent orders', () => {
  test('stock 1: exactly one 201 and 99 × 409; the listing leaves the shop, still published', async () => {
    const r = await rush(1);
    expect(r.statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(r.statuses.filter((s) => s === 409)).toHaveLength(99);
    for (const res of r.results.filter((x) => x.statusCode === 409)) expect(res.json().detail).toMatch(/reserved by another buyer|sold out/);
    expect(r.orders).toHaveLength(1);
    expect({ stock: r.stock, status: r.status }).toEqual({ stock: 0, status: 'published' });
    expect((await suite.call(shop, undefined, 'GET', `/v1/listings/${r.listing}`)).statusCode).toBe(404);
  });

  test('stock 10: exactly ten 201 and 90 × 409, ten orders of one unit each', async () => {
    const r = await rush(10);
    expect(r.statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(r.statuses.filter((s) => s === 409)).toHaveLength(90);
    expect(r.orders.map((o: { quantity: number }) => o.quantity)).toEqual(Array(10).fill(1));
    expect(r.stock).toBe(0);
  });
});
