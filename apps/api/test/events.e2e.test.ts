import { beforeAll, describe, expect, test } from 'vitest';
import { MarketplaceSchema } from '@hm/db/entities';
import { tenantEm } from '@hm/db/orm';
import { createConfirmedUser } from '@hm/domain/accounts';
import { signUp } from './harness.js';
import { ordersSuite, type Market, type Person } from './orders.suite.js';

/**
 * Events (issue 27): appended with each change in its transaction, read from the feed with `after`
 * (gapless, in commit order, per marketplace). Pushed to webhook endpoints: webhooks.e2e.test.ts.
 */
const suite = ordersSuite();
let shop: Market;
let own: Market;
let seller: Person;
let buyer: Person;
beforeAll(() => {
  ({ shop, own, seller, buyer } = suite);
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function feed(m: Market, query = ''): Promise<Json> {
  const res = await suite.h.request({ method: 'GET', url: `/v1/events${query}`, key: m.secret });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
/** Every event of the marketplace after a sequence, paging with `after`. */
async function allEvents(m: Market, after = 0, extra = ''): Promise<Json[]> {
  const out: Json[] = [];
  for (;;) {
    const page = await feed(m, `?after=${after}&limit=7${extra}`);
    out.push(...page.items);
    after = page.next_after;
    if (!page.has_more) return out;
  }
}
const lastSequence = async (m: Market) => (await allEvents(m)).at(-1)?.sequence ?? 0;

describe('the feed', () => {
  test('a secret key only: a publishable key is 403; bad parameters are one 422 listing each', async () => {
    const pub = await suite.h.request({ method: 'GET', url: '/v1/events', key: shop.publishable });
    expect(pub.statusCode).toBe(403);
    const bad = await suite.h.request({ method: 'GET', url: '/v1/events?limit=101&types=order.updated,order.paid&after=-1', key: shop.secret });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.map((e: Json) => e.location).sort()).toEqual(['query.after', 'query.limit', 'query.types']);
    expect((await feed(shop, '?limit=1')).items).toHaveLength(1);
    expect((await feed(shop, '?limit=100')).items.length).toBeLessThanOrEqual(100);
  });

  test('an event of each type after its action, with the object as /v1 shows it to its owner', async () => {
    const from = await lastSequence(shop);
    // user.created
    const { user } = await signUp(suite.h, shop.secret, { email: 'events-user@example.com', password: 'correct horse battery' });
    // listing.created, listing.updated (published)
    const listingId = await suite.listing(shop, seller, { stock: 2 });
    // order.created, order.updated (purchased)
    const orderId = await suite.purchased(shop, buyer, { listing_id: listingId, delivery: { method: 'pickup' } });
    // order.updated (delivered, received) and payout.updated (waiting for the seller's payout details)
    expect((await suite.move(shop, seller, orderId, 'mark-delivered')).statusCode).toBe(200);
    expect((await suite.move(shop, buyer, orderId, 'mark-received')).statusCode).toBe(200);
    await suite.h.runJobs();
    // message.created
    expect((await suite.call(shop, buyer, 'POST', '/v1/me/conversations', { order_id: orderId, body: 'Thanks!' })).statusCode).toBe(201);
    // page.published, page.unpublished
    await suite.h.console.pages.put({ marketplace: 'shop', slug: 'about', locale: 'en', page: { title: 'About', description: '', blocks: [{ id: 't', type: 'text', body: 'Us.' }] } });
    await suite.h.console.pages.publish({ marketplace: 'shop', slug: 'about', locale: 'en' });
    await suite.h.console.pages.unpublish({ marketplace: 'shop', slug: 'about', locale: 'en' });

    const events = await allEvents(shop, from);
    expect(events.map((e) => e.sequence)).toEqual(events.map((_, i) => from + i + 1));
    const types = new Set(events.map((e) => e.type));
    for (const t of ['user.created', 'listing.created', 'listing.updated', 'order.created', 'order.updated', 'payout.updated', 'message.created', 'page.published', 'page.unpublished']) expect(types, t).toContain(t);
    for (const e of events) expect(e.id).toMatch(/^evt_[0-9a-f]{32}$/);

    const userEvent = events.find((e) => e.type === 'user.created')!;
    expect(userEvent.data.object).toEqual(user);
    expect(JSON.stringify(events)).not.toMatch(/password_hash|passwordHash|client_secret|"token"/);

    const listingNow = await suite.call(shop, seller, 'GET', `/v1/me/listings/${listingId}`);
    const published = events.find((e) => e.type === 'listing.updated' && e.data.object.id === listingId && e.data.previous_attributes?.status === 'draft')!;
    expect(published.data.object.status).toBe('published');
    expect(published.data.object.title).toBe(listingNow.json().title);

    const orderMoves = events.filter((e) => e.type === 'order.updated' && e.data.object.id === orderId);
    expect(orderMoves.map((e) => [e.data.previous_attributes.state, e.data.object.state])).toEqual([
      ['pending_payment', 'purchased'],
      ['purchased', 'delivered'],
      ['delivered', 'received'],
    ]);
    // the buyer's view: the seller's payout figures are not in it
    const buyerView = await suite.get(shop, buyer, orderId);
    expect(orderMoves.at(-1)!.data.object).toEqual({ ...buyerView, available_transitions: orderMoves.at(-1)!.data.object.available_transitions });
    expect(orderMoves.at(-1)!.data.object.payout).toBeUndefined();
    const payout = events.find((e) => e.type === 'payout.updated')!;
    expect(payout.data.object).toMatchObject({ order_id: orderId, status: 'waiting_for_payout_details' });
    expect(payout.data.previous_attributes).toEqual({ status: 'pending' });
    expect(events.find((e) => e.type === 'message.created')!.data.object).toMatchObject({ body: 'Thanks!', from_marketplace: false, sender_id: buyer.id });
    expect(events.find((e) => e.type === 'page.unpublished')!.data).toMatchObject({ object: { slug: 'about', locale: 'en' }, previous_attributes: { published_at: expect.any(String) } });

    // types= filters; next_after still moves past what was read
    const only = await feed(shop, `?after=${from}&types=order.created,page.published`);
    expect(only.items.map((e: Json) => e.type)).toEqual(['order.created', 'page.published']);
  });

  test('a rolled-back action leaves no event and no gap', async () => {
    const listingId = await suite.listing(shop, seller);
    const before = await lastSequence(shop);
    const dup = await suite.h.request({ method: 'POST', url: '/v1/users', key: shop.secret, payload: { email: 'events-user@example.com' } });
    expect(dup.statusCode).toBe(409);
    const edit = await suite.call(shop, seller, 'PUT', `/v1/me/listings/${listingId}`, { title: 'Still complete?', description: '' }); // on sale must stay complete
    expect(edit.statusCode).toBe(422);
    expect(await allEvents(shop, before)).toEqual([]);
    // the next committed change takes the next sequence: nothing was used up by the rolled-back ones
    expect((await suite.call(shop, seller, 'POST', `/v1/me/listings/${listingId}/close`, {})).statusCode).toBe(200);
    expect((await allEvents(shop, before)).map((e) => [e.sequence, e.type, e.data.previous_attributes?.status])).toEqual([[before + 1, 'listing.updated', 'published']]);
  });

  test('pages with `after` have no gaps or duplicates while concurrent writers append', async () => {
    const from = await lastSequence(shop);
    const seen: number[] = [];
    let after = from;
    let writing = true;
    const reader = (async () => {
      while (writing || (await feed(shop, `?after=${after}&limit=1`)).items.length) {
        const page = await feed(shop, `?after=${after}&limit=3`);
        seen.push(...page.items.map((e: Json) => e.sequence));
        after = page.next_after;
      }
    })();
    await Promise.all(Array.from({ length: 24 }, (_, i) => signUp(suite.h, shop.secret, { email: `concurrent-${i}@example.com` })));
    writing = false;
    await reader;
    expect(seen).toEqual(Array.from({ length: 24 }, (_, i) => from + i + 1));
  });

  test('an account made confirmed (the demo people) says so in its user.created', async () => {
    const from = await lastSequence(shop);
    const em = tenantEm(suite.h.orm, shop.marketplace.id);
    const marketplace = await em.findOneOrFail(MarketplaceSchema, { id: shop.marketplace.id });
    await createConfirmedUser({ ...suite.h.ports, em, marketplace }, { email: 'confirmed@example.com', password: 'correct horse battery' });
    const [created] = await allEvents(shop, from);
    expect(created).toMatchObject({ type: 'user.created', data: { object: { email: 'confirmed@example.com', email_verified: true, has_password: true } } });
  });

  test("another marketplace's events never appear", async () => {
    await signUp(suite.h, own.secret, { email: 'own-events@example.com' });
    const ownEvents = await allEvents(own);
    const shopEvents = await allEvents(shop);
    expect(ownEvents.length).toBeGreaterThan(0);
    expect(ownEvents[0]!.sequence).toBe(1); // each marketplace counts its own
    const shopIds = new Set(shopEvents.map((e) => e.id));
    for (const e of ownEvents) expect(shopIds.has(e.id)).toBe(false);
    expect(JSON.stringify(shopEvents)).not.toContain('own-events@example.com');
  });
});
