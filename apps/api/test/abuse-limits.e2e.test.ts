import { beforeAll, describe, expect, test } from 'vitest';
import { makeMarketplace, signUp, type Harness } from './harness.js';
import { ordersSuite, type Market, type Person } from './orders.suite.js';

/**
 * Per-user caps against abuse (docs/decisions.md; marketplace settings `abuse_limits`): orders
 * awaiting payment per buyer (stock hoarding), messages a minute and new conversations an hour
 * (spam). Each counted exactly when the requests arrive together.
 */
const suite = ordersSuite({ poolMax: 12 });
let h: Harness;
let shop: Market;
let own: Market;
let seller: Person;
beforeAll(() => {
  ({ h, shop, own, seller } = suite);
});

let n = 0;
async function newPerson(m: Market): Promise<Person> {
  const email = `abuser${++n}@example.com`;
  const { token, user } = await signUp(h, m.secret, { email, first_name: 'Abe', locale: 'en' });
  return { token, id: user.id, email };
}

describe('orders awaiting payment per buyer', () => {
  test('the defaults are 3 orders awaiting payment, 60 messages a minute, 20 new conversations an hour', async () => {
    await makeMarketplace(h, 'fresh');
    const { marketplace } = await h.console.marketplace.update({ marketplace: 'fresh', settings: {} });
    expect(marketplace.abuse_limits).toEqual({ pending_orders_per_buyer: 3, messages_per_minute: 60, new_conversations_per_hour: 20 });
  });

  test('8 placings at once on 8 stock-1 listings: exactly 3 placed, 5 × 409 saying why; a paid or expired order frees its place', async () => {
    await h.console.marketplace.update({ marketplace: 'shop', settings: { abuse_limits: { pending_orders_per_buyer: 3 } } });
    const hoarder = await newPerson(shop);
    const listings = await Promise.all(Array.from({ length: 8 }, () => suite.listing(shop, seller)));
    const results = await Promise.all(listings.map((listing_id) => suite.place(shop, hoarder, { listing_id, delivery: { method: 'pickup' } })));
    const placed = results.filter((r) => r.statusCode === 201);
    const refused = results.filter((r) => r.statusCode === 409);
    expect(placed.length, results.map((r) => r.body).join('\n')).toBe(3);
    expect(refused.length).toBe(5);
    for (const r of refused) {
      expect(r.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(r.json()).toMatchObject({ status: 409, code: 'conflict', detail: expect.stringContaining('3 orders awaiting payment') });
    }
    // the refused listings stay in the shop
    const free = listings.filter((_, i) => results[i]!.statusCode === 409);
    for (const id of free) expect((await suite.call(shop, undefined, 'GET', `/v1/listings/${id}`)).statusCode).toBe(200);
    // paying one frees a place: the 4th placing now goes through, the 5th does not
    await suite.pay(shop, placed[0]!.json().payment.client_secret);
    expect((await suite.place(shop, hoarder, { listing_id: free[0], delivery: { method: 'pickup' } })).statusCode).toBe(201);
    expect((await suite.place(shop, hoarder, { listing_id: free[1], delivery: { method: 'pickup' } })).statusCode).toBe(409);
    // another buyer is not affected
    expect((await suite.place(shop, await newPerson(shop), { listing_id: free[1], delivery: { method: 'pickup' } })).statusCode).toBe(201);
    // past the payment window (15 minutes) the unpaid orders no longer count
    h.clock.advance(15 * 60_000 + 1000);
    expect((await suite.place(shop, hoarder, { listing_id: free[2], delivery: { method: 'pickup' } })).statusCode).toBe(201);
  });
});

describe('messages per user', () => {
  test('70 messages at once after the first: exactly 60 in the minute, the rest 429 with Retry-After; the next minute writes again', async () => {
    const talker = await newPerson(shop);
    const listing = await suite.listing(shop, seller);
    const first = await suite.call(shop, talker, 'POST', '/v1/me/conversations', { listing_id: listing, body: 'Hello' });
    expect(first.statusCode, first.body).toBe(201);
    const id = first.json().conversation.id;
    const burst = await Promise.all(Array.from({ length: 70 }, (_, i) => suite.call(shop, talker, 'POST', `/v1/me/conversations/${id}/messages`, { body: `x${i}`.padEnd(5000, 'x') })));
    expect(burst.filter((r) => r.statusCode === 201).length, burst.map((r) => r.statusCode).join(',')).toBe(59);
    const limited = burst.filter((r) => r.statusCode === 429);
    expect(limited.length).toBe(11);
    for (const r of limited) {
      expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(r.headers['retry-after'])).toBeLessThanOrEqual(60);
      expect(r.json()).toMatchObject({ status: 429, code: 'rate_limited', detail: expect.stringContaining('60 messages this minute') });
    }
    // only written messages are in the conversation
    const read = await suite.call(shop, talker, 'GET', `/v1/me/conversations/${id}/messages?limit=200`);
    expect(read.json().items.length).toBe(60);
    // the seller answering is their own count
    expect((await suite.call(shop, seller, 'POST', `/v1/me/conversations/${id}/messages`, { body: 'Yes' })).statusCode).toBe(201);
    h.clock.advance(60_000);
    expect((await suite.call(shop, talker, 'POST', `/v1/me/conversations/${id}/messages`, { body: 'Again' })).statusCode).toBe(201);
  });

  test('new conversations: over the hourly cap (support included) 429; continuing one is not a new one', async () => {
    await h.console.marketplace.update({ marketplace: 'own', settings: { abuse_limits: { new_conversations_per_hour: 3 } } });
    const asker = await newPerson(own);
    const listings = await Promise.all(Array.from({ length: 5 }, () => suite.listing(own, suite.ownSeller)));
    const starts = await Promise.all([
      ...listings.map((listing_id) => suite.call(own, asker, 'POST', '/v1/me/conversations', { listing_id, body: 'Is it available?' })),
      suite.call(own, asker, 'POST', '/v1/me/conversations', { support: true, body: 'Help' }),
    ]);
    expect(starts.filter((r) => r.statusCode === 201).length, starts.map((r) => r.body).join('\n')).toBe(3);
    const limited = starts.filter((r) => r.statusCode === 429);
    expect(limited.length).toBe(3);
    for (const r of limited) expect(Number(r.headers['retry-after'])).toBeGreaterThan(60 * 59);
    // writing again about a listing already asked about continues its conversation
    const opened = starts.find((r) => r.statusCode === 201 && r.json().conversation.kind === 'listing')!.json().conversation;
    const again = await suite.call(own, asker, 'POST', '/v1/me/conversations', { listing_id: opened.listing_id, body: 'Still there?' });
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json().conversation.id).toBe(opened.id);
    h.clock.advance(60 * 60_000);
    expect((await suite.call(own, asker, 'POST', '/v1/me/conversations', { support: true, body: 'Help' })).statusCode).toBeOneOf([201]);
  });
});
