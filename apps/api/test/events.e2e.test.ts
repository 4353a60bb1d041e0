import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { MarketplaceSchema } from '@hm/db/entities';
import { tenantEm } from '@hm/db/orm';
import { createConfirmedUser } from '@hm/domain/accounts';
import { emailsTo, signUp } from './harness.js';
import { ordersSuite, type Market, type Person } from './orders.suite.js';
import { startReceiver, type Received } from './webhook-receiver.js';

/**
 * Events (issue 27): appended with each change in its transaction, read from the feed with `after`
 * (gapless, in commit order, per marketplace), pushed to webhook endpoints signed per Standard
 * Webhooks, retried on the standard schedule by the timers, with a delivery log and secret rotation.
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

describe('webhooks', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let url: string;
  let received: Received[];
  let answers: number[];
  beforeAll(async () => {
    receiver = await startReceiver((status) => (status === 200 ? 'ok' : 'x'.repeat(5000)));
    ({ url, received, answers } = receiver);
  });
  afterAll(() => receiver.close());

  /** The package's own verifier, at the timestamp the webhook carries (the service runs on the test clock). */
  function verify(secret: string, r: Received) {
    const at = Number(r.headers['webhook-timestamp']) * 1000;
    const now = vi.spyOn(Date, 'now').mockReturnValue(at);
    try {
      return new Webhook(secret).verify(r.body, r.headers as Record<string, string>) as Json;
    } finally {
      now.mockRestore();
    }
  }
  const now = () => suite.h.clock.now();

  test('create prints the id and a whsec_ secret once; a receiver answering 500 then 200 gets the same webhook-id again after the timers advance; the log shows both attempts', async () => {
    const created = await suite.h.console.webhooks.create({ marketplace: 'shop', url, events: 'user.created' });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(created.endpoint).toMatchObject({ url, events: ['user.created'], enabled: true, status: 'enabled' });
    const listed = await suite.h.console.webhooks.list({ marketplace: 'shop' });
    expect(JSON.stringify(listed)).not.toContain(created.secret);

    answers.push(500, 200);
    received.length = 0;
    await signUp(suite.h, shop.secret, { email: 'hooked@example.com' });
    await suite.listing(shop, seller); // not subscribed: nothing sent
    await suite.advance(shop, now());
    expect(received).toHaveLength(1);
    const first = verify(created.secret, received[0]!);
    expect(first).toMatchObject({ type: 'user.created', data: { object: { email: 'hooked@example.com' } } });
    expect(received[0]!.headers['webhook-id']).toBe(first.id);
    expect(received[0]!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    // the next attempt is due 5 s later, not before
    await suite.advance(shop, new Date(now().getTime() + 4000));
    expect(received).toHaveLength(1);
    await suite.advance(shop, new Date(now().getTime() + 6000));
    expect(received).toHaveLength(2);
    expect(received[1]!.headers['webhook-id']).toBe(first.id);
    expect(verify(created.secret, received[1]!).id).toBe(first.id);

    const log = await suite.h.console.webhooks.deliveries({ marketplace: 'shop', id: created.endpoint.id });
    expect(log.items.map((a) => [a.attempt, a.status_code, a.delivery_status])).toEqual([
      [2, 200, 'delivered'],
      [1, 500, 'delivered'],
    ]);
    expect(log.items[1]!.response).toHaveLength(1024); // the first 1 KB of the response
    expect(log.items[1]!.error).toBe('HTTP 500');

    // replay: the same event, the same webhook-id, a new delivery
    await suite.h.console.webhooks.replay({ marketplace: 'shop', id: created.endpoint.id, event: first.id });
    await suite.advance(shop, new Date(now().getTime() + 1000));
    expect(received.at(-1)!.headers['webhook-id']).toBe(first.id);
    await suite.h.console.webhooks.delete({ marketplace: 'shop', id: created.endpoint.id });
  });

  test('deliveries to one endpoint recorded at once wait for each other: none fails (no deadlock), each arrives once', async () => {
    const { endpoint } = await suite.h.console.webhooks.create({ marketplace: 'shop', url, events: 'user.created' });
    answers.length = 0;
    received.length = 0;
    for (let i = 0; i < 16; i++) await signUp(suite.h, shop.secret, { email: `at-once-${i}@example.com` });
    await Promise.all(Array.from({ length: 6 }, () => suite.advance(shop, now())));
    const errors = await suite.h.orm.em.getConnection().execute<{ last_error: string }[]>(`select last_error from graphile_worker.jobs where task_identifier = 'deliver-webhook' and last_error is not null`);
    expect(errors.map((e) => e.last_error)).toEqual([]);
    expect(new Set(received.map((r) => r.headers['webhook-id'])).size).toBe(16);
    await suite.h.console.webhooks.delete({ marketplace: 'shop', id: endpoint.id });
  });

  test('a rotated secret: both sign for 24 hours, then only the new one', async () => {
    const { endpoint, secret: old } = await suite.h.console.webhooks.create({ marketplace: 'shop', url, events: '*' });
    const { secret: fresh } = await suite.h.console.webhooks.rotateSecret({ marketplace: 'shop', id: endpoint.id });
    expect(fresh).not.toBe(old);
    received.length = 0;
    await signUp(suite.h, shop.secret, { email: 'rotated@example.com' });
    await suite.advance(shop, now());
    expect(received).toHaveLength(1);
    expect(String(received[0]!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verify(fresh, received[0]!).type).toBe('user.created');
    expect(verify(old, received[0]!).type).toBe('user.created');

    suite.h.clock.advance(24 * 3600 * 1000 + 1000);
    await signUp(suite.h, shop.secret, { email: 'rotated-later@example.com' });
    await suite.advance(shop, now());
    const later = received.at(-1)!;
    expect(String(later.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verify(fresh, later).data.object.email).toBe('rotated-later@example.com');
    expect(() => verify(old, later)).toThrow();
    await suite.h.console.webhooks.delete({ marketplace: 'shop', id: endpoint.id });
  });

  test('a secret that no longer opens (the secrets key changed) is a failed attempt the log explains, never a crash', async () => {
    const { endpoint } = await suite.h.console.webhooks.create({ marketplace: 'shop', url, events: 'user.created' });
    await suite.h.orm.em.getConnection().execute(`update webhook_endpoints set secret = decode(repeat('00', 40), 'hex') where id = ?`, [endpoint.id]);
    received.length = 0;
    await signUp(suite.h, shop.secret, { email: 'unopened@example.com' });
    await suite.advance(shop, now());
    expect(received).toHaveLength(0);
    const log = await suite.h.console.webhooks.deliveries({ marketplace: 'shop', id: endpoint.id });
    expect(log.items[0]).toMatchObject({ attempt: 1, status_code: null, error: expect.stringContaining('rotate the endpoint secret'), delivery_status: 'pending' });
    await suite.h.console.webhooks.delete({ marketplace: 'shop', id: endpoint.id });
  });

  test('after the last attempt the delivery fails and the endpoint shows as failing; after 5 days disabled and the team emailed once; unknown event types and bad URLs are 422', async () => {
    await suite.h.console.marketplace.update({ marketplace: 'shop', settings: { alert_email: 'hooks-team@example.com' } });
    const { endpoint } = await suite.h.console.webhooks.create({ marketplace: 'shop', url, events: 'user.created' });
    answers.length = 0;
    answers.push(...Array(8).fill(503));
    received.length = 0;
    await signUp(suite.h, shop.secret, { email: 'failing@example.com' });
    await suite.advance(shop, new Date(now().getTime() + 2 * 24 * 3600 * 1000));
    expect(received).toHaveLength(8);
    expect(new Set(received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    const [listed] = (await suite.h.console.webhooks.list({ marketplace: 'shop' })).items.filter((e) => e.id === endpoint.id);
    expect(listed).toMatchObject({ status: 'failing', enabled: true });
    const log = await suite.h.console.webhooks.deliveries({ marketplace: 'shop', id: endpoint.id });
    expect(log.items[0]).toMatchObject({ attempt: 8, status_code: 503, delivery_status: 'failed' });
    const failingSince = listed!.failing_since as string;
    expect(await emailsTo(suite.h, shop.secret, 'hooks-team@example.com')).toEqual([]); // failing is not yet disabled

    // failing for 5 days with no success: disabled at the next failure, and nothing more is sent
    suite.h.clock.advance(5 * 24 * 3600 * 1000);
    answers.push(503);
    await signUp(suite.h, shop.secret, { email: 'failing-later@example.com' });
    await suite.advance(shop, now());
    expect(received).toHaveLength(9);
    const [disabled] = (await suite.h.console.webhooks.list({ marketplace: 'shop' })).items.filter((e) => e.id === endpoint.id);
    expect(disabled).toMatchObject({ status: 'disabled', enabled: false, disabled_reason: expect.stringContaining('5 days') });
    // one email to the team: which endpoint, since when, the last error, the command that turns it on again
    const alerts = await emailsTo(suite.h, shop.secret, 'hooks-team@example.com');
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.subject).toContain(url);
    expect(alerts[0]!.text).toContain(`${endpoint.id} (${url})`);
    expect(alerts[0]!.text).toContain(`failed since ${failingSince}`);
    expect(alerts[0]!.text).toContain('The last error: HTTP 503');
    expect(alerts[0]!.text).toContain(`npm run console -- webhooks update --marketplace shop --id ${endpoint.id} --enabled true`);
    await signUp(suite.h, shop.secret, { email: 'after-disabled@example.com' });
    await suite.advance(shop, new Date(now().getTime() + 3 * 24 * 3600 * 1000));
    expect(received).toHaveLength(9);
    expect(await emailsTo(suite.h, shop.secret, 'hooks-team@example.com')).toHaveLength(1);
    // enabled again: its failing state starts anew
    const enabled = await suite.h.console.webhooks.update({ marketplace: 'shop', id: endpoint.id, enabled: true });
    expect(enabled.endpoint).toMatchObject({ status: 'enabled', enabled: true });
    expect(enabled.endpoint).not.toHaveProperty('failing_since');
    await suite.h.console.webhooks.delete({ marketplace: 'shop', id: endpoint.id });

    await expect(suite.h.console.webhooks.create({ marketplace: 'shop', url: 'ftp://example.com/x', events: 'order.paid,user.created' })).rejects.toMatchObject({
      cause: { errors: [expect.objectContaining({ location: 'url' }), expect.objectContaining({ location: 'events', value: 'order.paid' })] },
    });
  });
});

