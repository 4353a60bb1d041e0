import { describe, expect, test } from 'vitest';
import { makeMarketplace, signUp } from './harness.js';
import type { Person } from './orders.suite.js';
import { messagesSuite } from './messages.suite.js';

/**
 * Messages (spec: Conversation and message, Messages endpoints): conversations about a listing, an
 * order or with support, continued rather than opened twice; unread counts per party; `after`
 * paging and message ids. Who may read, support answered from the console and the throttled notice
 * emails: messages-access.e2e.test.ts.
 */
const { suite, start, post, read, list, unreadOf } = messagesSuite();

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('POST /v1/me/conversations continues the existing conversation', () => {
  test('about a listing: the asker and its seller, one conversation however often asked', async () => {
    const listing = await suite.listing(suite.shop, suite.seller);
    const first = await start(suite.shop, suite.buyer, { listing_id: listing, body: 'Is it still available?' });
    expect(first.conversation).toMatchObject({ kind: 'listing', user_a: suite.buyer.id, user_b: suite.seller.id, listing_id: listing, last_message: 'Is it still available?', unread: 0 });
    expect(first.conversation.order_id).toBeUndefined();
    expect(first.message).toMatchObject({ body: 'Is it still available?', from_marketplace: false, sender_id: suite.buyer.id });
    expect(Number.isInteger(first.message.id)).toBe(true);
    suite.h.clock.advance(1000);
    const again = await start(suite.shop, suite.buyer, { listing_id: listing, body: 'And does it work?' });
    expect(again.conversation.id).toBe(first.conversation.id);
    expect(again.message.id).toBeGreaterThan(first.message.id);
    expect(again.conversation.last_message).toBe('And does it work?');
    // someone else asking about the same listing has a conversation of their own
    const other = await start(suite.shop, suite.buyer2, { listing_id: listing, body: 'Hello' });
    expect(other.conversation.id).not.toBe(first.conversation.id);
    expect((await read(suite.shop, suite.seller, first.conversation.id)).map((m) => m.body)).toEqual(['Is it still available?', 'And does it work?']);
  });

  test('about an order: its buyer and its seller share one conversation, whoever writes first', async () => {
    const listing = await suite.listing(suite.shop, suite.seller);
    const { order } = await suite.placed(suite.shop, suite.buyer, { listing_id: listing, delivery: { method: 'pickup' } });
    const bySeller = await start(suite.shop, suite.seller, { order_id: order.id, body: 'Thanks! When will you pick it up?' });
    expect(bySeller.conversation).toMatchObject({ kind: 'order', user_a: suite.buyer.id, user_b: suite.seller.id, order_id: order.id, listing_id: listing });
    const byBuyer = await start(suite.shop, suite.buyer, { order_id: order.id, body: 'Tomorrow.' });
    expect(byBuyer.conversation.id).toBe(bySeller.conversation.id);
    expect(byBuyer.conversation.unread).toBe(1); // the seller's message, not yet read by the buyer
    // an order's conversation is not the listing's
    expect((await start(suite.shop, suite.buyer, { listing_id: listing, body: 'Hi' })).conversation.id).not.toBe(bySeller.conversation.id);
  });

  test('each party sees what it is about and with whom: the listing title (an order: its listing), the other party by name; support names no party', async () => {
    const named = async (who: Person, display_name: string) => expect((await suite.call(suite.shop, who, 'PATCH', '/v1/me', { display_name })).statusCode).toBe(200);
    await named(suite.seller, 'Stina');
    await named(suite.buyer, 'Bo');
    const listing = await suite.listing(suite.shop, suite.seller, { title: 'Matin table lamp, red' });
    const asked = await start(suite.shop, suite.buyer, { listing_id: listing, body: 'Red as in the photo?' });
    expect(asked.conversation).toMatchObject({ listing_title: 'Matin table lamp, red', other_party: { id: suite.seller.id, display_name: 'Stina' } });
    expect(asked.conversation.listing_image).toBeUndefined(); // no photo yet
    const forSeller = (await list(suite.shop, suite.seller, '?limit=100')).find((c) => c.id === asked.conversation.id)!;
    expect(forSeller).toMatchObject({ listing_title: 'Matin table lamp, red', other_party: { id: suite.buyer.id, display_name: 'Bo' } });
    const { order } = await suite.placed(suite.shop, suite.buyer, { listing_id: listing, delivery: { method: 'pickup' } });
    const about = await start(suite.shop, suite.seller, { order_id: order.id, body: 'Thanks!' });
    expect(about.conversation).toMatchObject({ kind: 'order', listing_title: 'Matin table lamp, red', other_party: { id: suite.buyer.id, display_name: 'Bo' } });
    const support = await start(suite.shop, suite.buyer, { support: true, body: 'Hello' });
    expect(support.conversation.other_party).toBeUndefined();
    expect(support.conversation.listing_title).toBeUndefined();
  });

  test('with support: one per user; `support: false` alone is no subject', async () => {
    const first = await start(suite.shop, suite.buyer2, { support: true, body: 'Where is my parcel?' });
    expect(first.conversation).toMatchObject({ kind: 'support', user_a: suite.buyer2.id });
    expect(first.conversation.user_b).toBeUndefined();
    expect((await start(suite.shop, suite.buyer2, { support: true, body: 'Hello?' })).conversation.id).toBe(first.conversation.id);
    const none = await suite.call(suite.shop, suite.buyer2, 'POST', '/v1/me/conversations', { support: false, body: 'x' });
    expect(none.statusCode).toBe(422);
  });

  test('concurrent first messages about the same listing open one conversation', async () => {
    const listing = await suite.listing(suite.shop, suite.seller);
    const all = await Promise.all(Array.from({ length: 5 }, (_, i) => suite.call(suite.shop, suite.buyer2, 'POST', '/v1/me/conversations', { listing_id: listing, body: `q${i}` })));
    expect(all.map((r) => r.statusCode)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(all.map((r) => r.json().conversation.id)).size).toBe(1);
    expect(await read(suite.shop, suite.buyer2, all[0]!.json().conversation.id)).toHaveLength(5);
  });
});

describe('which listings can be discussed', () => {
  test('your own listing is 422; another’s draft is 404; a sold listing only by someone with an order or a conversation about it', async () => {
    const mine = await suite.listing(suite.shop, suite.seller);
    const own422 = await suite.call(suite.shop, suite.seller, 'POST', '/v1/me/conversations', { listing_id: mine, body: 'me' });
    expect(own422.statusCode).toBe(422);
    expect(own422.json().errors).toEqual([expect.objectContaining({ location: 'body.listing_id' })]);

    const draft = await suite.call(suite.shop, suite.seller, 'POST', '/v1/me/listings', { title: 'Draft lamp', description: 'Not yet.', price: { amount: 1000, currency: 'SEK' }, stock: 1 });
    expect(draft.statusCode, draft.body).toBe(201);
    const notOnSale = await suite.call(suite.shop, suite.buyer, 'POST', '/v1/me/conversations', { listing_id: draft.json().id, body: 'hi' });
    expect(notOnSale.statusCode).toBe(404);
    expect(notOnSale.json().detail).toBe('This listing was not found.');

    // sold out: the buyer (an order) and an earlier asker may still write about it; a newcomer may not
    const sold = await suite.listing(suite.shop, suite.seller);
    const asked = await start(suite.shop, suite.buyer2, { listing_id: sold, body: 'Any scratches?' });
    await suite.purchased(suite.shop, suite.buyer, { listing_id: sold, delivery: { method: 'pickup' } });
    expect((await start(suite.shop, suite.buyer, { listing_id: sold, body: 'I bought it; is the shade included?' })).conversation.kind).toBe('listing');
    expect((await start(suite.shop, suite.buyer2, { listing_id: sold, body: 'Too late for me.' })).conversation.id).toBe(asked.conversation.id);
    const { token, user } = await signUp(suite.h, suite.shop.secret, { email: 'newcomer@example.com' });
    const newcomer = await suite.call(suite.shop, { token, id: user.id, email: 'newcomer@example.com' }, 'POST', '/v1/me/conversations', { listing_id: sold, body: 'Still for sale?' });
    expect(newcomer.statusCode).toBe(404);
  });

  test('exactly one subject: none or several are 422 listing every extra one', async () => {
    const listing = await suite.listing(suite.shop, suite.seller);
    const none = await suite.call(suite.shop, suite.buyer, 'POST', '/v1/me/conversations', { body: 'hi' });
    expect(none.statusCode).toBe(422);
    expect(none.json().errors.map((e: Json) => e.location)).toEqual(['body.listing_id']);
    const three = await suite.call(suite.shop, suite.buyer, 'POST', '/v1/me/conversations', { body: 'hi', listing_id: listing, order_id: listing, support: true });
    expect(three.statusCode).toBe(422);
    expect(three.json().errors.map((e: Json) => e.location).sort()).toEqual(['body.order_id', 'body.support']);
    const bad = await suite.call(suite.shop, suite.buyer, 'POST', '/v1/me/conversations', { body: '', listing_id: 'nope', extra: 1 });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.map((e: Json) => e.location).sort()).toEqual(['body.body', 'body.extra', 'body.listing_id']);
  });
});

describe('unread counts and reading', () => {
  test('per party: the other party’s messages count until returned by GET …/messages; reading a page marks only that page', async () => {
    const listing = await suite.listing(suite.shop, suite.seller);
    const { conversation } = await start(suite.shop, suite.buyer, { listing_id: listing, body: 'one' });
    await post(suite.shop, suite.buyer, conversation.id, 'two');
    await post(suite.shop, suite.buyer, conversation.id, 'three');
    expect(await unreadOf(suite.shop, suite.buyer, conversation.id)).toBe(0); // your own messages are never unread
    expect(await unreadOf(suite.shop, suite.seller, conversation.id)).toBe(3);
    expect((await read(suite.shop, suite.seller, conversation.id, '?limit=1')).map((m) => m.body)).toEqual(['one']);
    expect(await unreadOf(suite.shop, suite.seller, conversation.id)).toBe(2);
    const rest = await read(suite.shop, suite.seller, conversation.id, '?after=0'); // re-reading from the start marks the rest
    expect(rest.map((m) => m.body)).toEqual(['one', 'two', 'three']);
    expect(await unreadOf(suite.shop, suite.seller, conversation.id)).toBe(0);
    await read(suite.shop, suite.seller, conversation.id, '?limit=1'); // an older page read later does not move the mark back
    expect(await unreadOf(suite.shop, suite.seller, conversation.id)).toBe(0);
    const reply = await post(suite.shop, suite.seller, conversation.id, 'Yes, still here.');
    expect(reply).toMatchObject({ sender_id: suite.seller.id, from_marketplace: false });
    expect(await unreadOf(suite.shop, suite.buyer, conversation.id)).toBe(1);
    expect(await unreadOf(suite.shop, suite.seller, conversation.id)).toBe(0);
  });

  test('latest message first, offset-paged; limit 1..100 and offset >= 0', async () => {
    const a = await start(suite.shop, suite.buyer, { listing_id: await suite.listing(suite.shop, suite.seller), body: 'a' });
    suite.h.clock.advance(1000);
    const b = await start(suite.shop, suite.buyer, { listing_id: await suite.listing(suite.shop, suite.seller), body: 'b' });
    suite.h.clock.advance(1000);
    await post(suite.shop, suite.buyer, a.conversation.id, 'a again'); // a is the latest now
    const ids = (await list(suite.shop, suite.buyer, '?limit=100')).map((c) => c.id);
    expect(ids.indexOf(a.conversation.id)).toBe(0);
    expect(ids.indexOf(b.conversation.id)).toBe(1);
    expect((await list(suite.shop, suite.buyer, '?limit=1')).map((c) => c.id)).toEqual([a.conversation.id]);
    expect((await list(suite.shop, suite.buyer, '?limit=1&offset=1')).map((c) => c.id)).toEqual([b.conversation.id]);
    expect(await list(suite.shop, suite.buyer, `?offset=${ids.length}`)).toEqual([]);
    expect(await list(suite.shop, suite.buyer, '?limit=100&offset=0')).toHaveLength(ids.length);
    for (const q of ['limit=0', 'limit=101', 'offset=-1', 'offset=x']) {
      const res = await suite.call(suite.shop, suite.buyer, 'GET', `/v1/me/conversations?${q}`);
      expect(res.statusCode, q).toBe(422);
      expect(res.json().errors[0].location).toBe(`query.${q.split('=')[0]}`);
    }
  });
});

describe('GET …/messages: after paging', () => {
  test('oldest first after a message id; at the edges; limit 1..200; after >= 0', async () => {
    const { conversation, message } = await start(suite.shop, suite.buyer, { support: true, body: 'm0' });
    const ids = [message.id as number];
    for (let i = 1; i < 5; i++) ids.push((await post(suite.shop, suite.buyer, conversation.id, `m${i}`)).id);
    const support = (await read(suite.shop, suite.buyer, conversation.id)).map((m) => m.id as number);
    const mine = support.slice(support.indexOf(ids[0]!));
    expect(mine).toEqual(ids);
    expect((await read(suite.shop, suite.buyer, conversation.id, `?after=${ids[1]}&limit=2`)).map((m) => m.body)).toEqual(['m2', 'm3']);
    expect((await read(suite.shop, suite.buyer, conversation.id, `?after=${ids[3]}&limit=2`)).map((m) => m.body)).toEqual(['m4']); // shorter than limit: the last page
    expect(await read(suite.shop, suite.buyer, conversation.id, `?after=${ids[4]}`)).toEqual([]);
    expect(await read(suite.shop, suite.buyer, conversation.id, `?after=${ids[4]! + 1000}`)).toEqual([]);
    expect((await read(suite.shop, suite.buyer, conversation.id, `?after=${ids[0]! - 1}&limit=1`)).map((m) => m.id)).toEqual([ids[0]]);
    expect(await read(suite.shop, suite.buyer, conversation.id, '?limit=200')).toHaveLength(support.length);
    for (const q of ['limit=0', 'limit=201', 'after=-1', 'after=1.5']) {
      const res = await suite.call(suite.shop, suite.buyer, 'GET', `/v1/me/conversations/${conversation.id}/messages?${q}`);
      expect(res.statusCode, q).toBe(422);
      expect(res.json().errors[0].location).toBe(`query.${q.split('=')[0]}`);
    }
  });

  test('message ids increase within the marketplace, exactly, under concurrent writers', async () => {
    const a = await start(suite.shop, suite.buyer, { listing_id: await suite.listing(suite.shop, suite.seller), body: 'x' });
    const b = await start(suite.shop, suite.buyer2, { listing_id: await suite.listing(suite.shop, suite.seller), body: 'y' });
    const posted = await Promise.all(
      Array.from({ length: 12 }, (_, i) => suite.call(suite.shop, i % 2 ? suite.buyer : suite.buyer2, 'POST', `/v1/me/conversations/${i % 2 ? a.conversation.id : b.conversation.id}/messages`, { body: `p${i}` })),
    );
    const ids = posted.map((r) => r.json().id as number).sort((x, y) => x - y);
    const first = Math.max(a.message.id, b.message.id) + 1;
    expect(ids).toEqual(Array.from({ length: 12 }, (_, i) => first + i));
    // another marketplace counts its own
    const elsewhere = await start(suite.own, suite.ownBuyer, { support: true, body: 'hej' });
    expect(elsewhere.message.id).toBeLessThan(first);
  });
});

describe('message ids past powers of ten (a fresh marketplace counts from 1)', () => {
  test('101 messages: pages in numeric id order, `after` continues without repeats, the read mark and unread counts follow', async () => {
    const fresh = { ...(await makeMarketplace(suite.h, 'fresh-ids')), slug: 'fresh-ids' };
    await suite.h.console.marketplace.update({
      marketplace: fresh.slug,
      // 101 messages in one go: above the default 60 a minute (abuse-limits.e2e.test.ts tests the limit)
      settings: { listings: { min_images: 0, require_approval: false, require_category: false, required_terms: [], valuations: false }, abuse_limits: { messages_per_minute: 200 } },
    });
    const person = async (email: string): Promise<Person> => {
      const { token, user } = await signUp(suite.h, fresh.secret, { email });
      return { token, id: user.id, email };
    };
    const freshSeller = await person('seller@example.com');
    const freshBuyer = await person('buyer@example.com');
    const listing = await suite.listing(fresh, freshSeller, { delivery: { pickup: true } });
    const { conversation, message } = await start(fresh, freshBuyer, { listing_id: listing, body: 'msg 1' });
    const ids = [message.id as number];
    for (let i = 2; i <= 101; i++) ids.push((await post(fresh, freshBuyer, conversation.id, `msg ${i}`)).id);
    expect(ids).toEqual(Array.from({ length: 101 }, (_, i) => i + 1)); // 1, 2, …, 9, 10, …, 99, 100, 101
    expect(await unreadOf(fresh, freshSeller, conversation.id)).toBe(101);

    // the default page (100): ids 1..100 in numeric order, so the read mark is 100, not "99" or 98
    const first = await read(fresh, freshSeller, conversation.id);
    expect(first.map((m) => m.id)).toEqual(ids.slice(0, 100));
    expect(first.map((m) => m.body)).toEqual(ids.slice(0, 100).map((i) => `msg ${i}`));
    expect(await unreadOf(fresh, freshSeller, conversation.id)).toBe(1);

    // `after` the page's last id: only what is left, no repeats
    const next = await read(fresh, freshSeller, conversation.id, `?after=${first.at(-1)!.id}`);
    expect(next.map((m) => m.id)).toEqual([101]);
    expect(await unreadOf(fresh, freshSeller, conversation.id)).toBe(0);
    expect(await read(fresh, freshSeller, conversation.id, '?after=101')).toEqual([]);

    // across each power of ten, small pages
    expect((await read(fresh, freshSeller, conversation.id, '?after=8&limit=3')).map((m) => m.id)).toEqual([9, 10, 11]);
    expect((await read(fresh, freshSeller, conversation.id, '?after=98&limit=3')).map((m) => m.id)).toEqual([99, 100, 101]);
    const walked: number[] = [];
    for (let page = await read(fresh, freshSeller, conversation.id, '?limit=7'); page.length; page = await read(fresh, freshSeller, conversation.id, `?after=${walked.at(-1)}&limit=7`)) {
      walked.push(...page.map((m) => m.id as number));
    }
    expect(walked).toEqual(ids);

    // the other way: the seller's replies 102..110 are unread for the buyer until a page reaches them
    for (let i = 102; i <= 110; i++) expect((await post(fresh, freshSeller, conversation.id, `msg ${i}`)).id).toBe(i);
    expect(await unreadOf(fresh, freshBuyer, conversation.id)).toBe(9);
    expect((await read(fresh, freshBuyer, conversation.id, '?after=100&limit=5')).map((m) => m.id)).toEqual([101, 102, 103, 104, 105]);
    expect(await unreadOf(fresh, freshBuyer, conversation.id)).toBe(5);

    // the console reads in the same order
    const got = await suite.h.console.conversations.get({ id: conversation.id });
    expect(got.messages.map((m) => m.id)).toEqual(Array.from({ length: 110 }, (_, i) => i + 1));
  }, 120_000);
});
