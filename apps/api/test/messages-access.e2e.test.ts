import { describe, expect, test } from 'vitest';
import { emailsTo } from './harness.js';
import type { Market, Person } from './orders.suite.js';
import { messagesSuite } from './messages.suite.js';

/**
 * Messages: limits and who may read (other users' and marketplaces' conversations are 404), support
 * answered from the console, and the throttled notice emails.
 */
const { suite, start, post, read, list, unreadOf, notices, now } = messagesSuite();

const MIN = 60_000;

describe('limits and access', () => {
  test('a body of 5000 characters is fine, 5001 is 422 at body.body, on both POSTs', async () => {
    const { conversation } = await start(suite.shop, suite.buyer, { support: true, body: 'x'.repeat(5000) });
    expect((await post(suite.shop, suite.buyer, conversation.id, 'y'.repeat(5000))).body).toHaveLength(5000);
    for (const [url, extra] of [
      ['/v1/me/conversations', { support: true }],
      [`/v1/me/conversations/${conversation.id}/messages`, {}],
    ] as const) {
      const res = await suite.call(suite.shop, suite.buyer, 'POST', url, { ...extra, body: 'z'.repeat(5001) });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual([expect.objectContaining({ location: 'body.body' })]);
    }
  });

  test('other users’ and other marketplaces’ conversations are 404; their orders too', async () => {
    const listing = await suite.listing(suite.shop, suite.seller);
    const { conversation } = await start(suite.shop, suite.buyer, { listing_id: listing, body: 'private' });
    const { order } = await suite.placed(suite.shop, suite.buyer, { listing_id: await suite.listing(suite.shop, suite.seller), delivery: { method: 'pickup' } });
    const calls = (m: Market, who: Person) => [
      suite.call(m, who, 'GET', `/v1/me/conversations/${conversation.id}/messages`),
      suite.call(m, who, 'POST', `/v1/me/conversations/${conversation.id}/messages`, { body: 'hi' }),
      suite.call(m, who, 'POST', '/v1/me/conversations', { order_id: order.id, body: 'hi' }),
    ];
    for (const res of await Promise.all([...calls(suite.shop, suite.buyer2), ...calls(suite.own, suite.ownBuyer), ...calls(suite.own, suite.ownSeller)])) {
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json().code).toBe('not_found');
    }
    expect((await list(suite.shop, suite.buyer2, '?limit=100')).some((c) => c.id === conversation.id)).toBe(false);
    expect((await suite.call(suite.own, suite.ownBuyer, 'POST', '/v1/me/conversations', { listing_id: listing, body: 'hi' })).statusCode).toBe(404);
    expect(await read(suite.shop, suite.buyer, conversation.id)).toHaveLength(1); // untouched
  });

  test('a session with a secret key is needed: 401 without a session, 403 with a publishable key', async () => {
    expect((await suite.call(suite.shop, undefined, 'GET', '/v1/me/conversations')).statusCode).toBe(401);
    for (const [method, url] of [
      ['GET', '/v1/me/conversations'],
      ['POST', '/v1/me/conversations'],
      ['GET', '/v1/me/conversations/00000000-0000-7000-8000-000000000001/messages'],
      ['POST', '/v1/me/conversations/00000000-0000-7000-8000-000000000001/messages'],
    ] as const) {
      const res = await suite.h.request({ method, url, key: suite.shop.publishable, session: suite.buyer.token, ...(method === 'POST' ? { payload: { body: 'x', support: true } } : {}) });
      expect(res.statusCode, url).toBe(403);
    }
  });
});

describe('support from the console', () => {
  test('the inbox lists what waits for an answer; a reply is from the marketplace with no sender, and unread for the user', async () => {
    const { conversation } = await start(suite.shop, suite.seller, { support: true, body: 'How do I get paid?' });
    const waiting = await suite.h.console.support.list({ marketplace: 'shop', unanswered: true });
    expect(waiting.items.map((c) => c.id)).toContain(conversation.id);
    const { message } = await suite.h.console.support.reply({ conversation: conversation.id, body: 'Set up payouts under your account.' });
    expect(message).toMatchObject({ from_marketplace: true, body: 'Set up payouts under your account.' });
    expect(message.sender_id).toBeUndefined();
    expect((await suite.h.console.support.list({ marketplace: 'shop', unanswered: true })).items.map((c) => c.id)).not.toContain(conversation.id);
    expect((await suite.h.console.support.list({ marketplace: 'shop' })).items.map((c) => c.id)).toContain(conversation.id);
    expect(await unreadOf(suite.shop, suite.seller, conversation.id)).toBe(1);
    const items = await read(suite.shop, suite.seller, conversation.id);
    expect(items.at(-1)).toEqual({ id: message.id, body: 'Set up payouts under your account.', at: expect.any(String), from_marketplace: true });
    expect(await unreadOf(suite.shop, suite.seller, conversation.id)).toBe(0);
    const got = await suite.h.console.conversations.get({ id: conversation.id });
    expect(got.conversation).toMatchObject({ kind: 'support', user_a: suite.seller.id, last_from_marketplace: true });
    expect(got.messages.map((m) => m.body)).toEqual(['How do I get paid?', 'Set up payouts under your account.']);
  });

  test('support answers only support conversations; unknown ids are 404', async () => {
    const { conversation } = await start(suite.shop, suite.buyer, { listing_id: await suite.listing(suite.shop, suite.seller), body: 'hi' });
    await expect(suite.h.console.support.reply({ conversation: conversation.id, body: 'no' })).rejects.toMatchObject({ cause: expect.objectContaining({ code: 'validation_failed' }) });
    await expect(suite.h.console.conversations.get({ id: '00000000-0000-7000-8000-000000000009' })).rejects.toMatchObject({ cause: expect.objectContaining({ code: 'not_found' }) });
    expect((await suite.h.console.conversations.get({ id: conversation.id })).messages).toHaveLength(1);
  });
});

describe('notice emails', () => {
  test('at most one per conversation and recipient every 15 minutes, in their language, linking to the conversation page; none once read', async () => {
    await suite.call(suite.shop, suite.seller, 'PATCH', '/v1/me', { display_name: 'Anna' });
    await suite.call(suite.shop, suite.buyer, 'PATCH', '/v1/me', { display_name: 'Bo' });
    const listing = await suite.listing(suite.shop, suite.seller, { title: 'Matin table lamp, red' });
    const { conversation } = await start(suite.shop, suite.buyer, { listing_id: listing, body: 'First?' });
    const page = (language: string) => `https://shop.example/${language}/account/messages/${conversation.id}`;
    const toSeller = async () => (await notices(suite.seller)).filter((e) => e.links.includes(page('en')));
    await suite.advance(suite.shop, now());
    const first = await toSeller();
    expect(first).toHaveLength(1);
    // it names the sender and the listing
    expect(first[0]).toMatchObject({ locale: 'en', subject: 'Bo wrote about Matin table lamp, red' });
    expect(first[0]!.text).toContain('Bo wrote about Matin table lamp, red. Someone has written to you in the shop.');

    // two more within the 15 minutes: no email yet; one when they end
    suite.h.clock.advance(5 * MIN);
    await post(suite.shop, suite.buyer, conversation.id, 'Second?');
    suite.h.clock.advance(1 * MIN);
    await post(suite.shop, suite.buyer, conversation.id, 'Third?');
    await suite.advance(suite.shop, now());
    expect(await toSeller()).toHaveLength(1);
    const ran = await suite.advance(suite.shop, new Date(suite.h.clock.now().getTime() + 10 * MIN));
    expect(ran.filter((r) => r.task === 'notify-messages' && r.result.includes(conversation.id))).toHaveLength(1);
    expect(await toSeller()).toHaveLength(2);

    // a message the seller reads before its notice is due sends nothing
    suite.h.clock.advance(11 * MIN);
    await post(suite.shop, suite.buyer, conversation.id, 'Fourth?');
    await read(suite.shop, suite.seller, conversation.id);
    suite.h.clock.advance(20 * MIN);
    await suite.advance(suite.shop, now());
    expect(await toSeller()).toHaveLength(2);

    // the seller's answer reaches the buyer in Swedish
    await post(suite.shop, suite.seller, conversation.id, 'Yes.');
    await suite.advance(suite.shop, now());
    const toBuyer = (await notices(suite.buyer)).filter((e) => e.links.includes(page('sv')));
    expect(toBuyer).toHaveLength(1);
    expect(toBuyer[0]).toMatchObject({ locale: 'sv', subject: 'Anna skrev om Matin table lamp, red' });
  });

  test('in German, about a listing and about an order: the subject names the sender and the listing (the order\'s listing)', async () => {
    await suite.call(suite.shop, suite.seller, 'PATCH', '/v1/me', { display_name: 'Anna' });
    const listing = await suite.listing(suite.shop, suite.seller, { title: 'Matin table lamp, blue' });
    const toBuyer2 = async (id: string) => (await notices(suite.buyer2)).filter((e) => e.links.includes(`https://shop.example/de/account/messages/${id}`));
    const asked = (await start(suite.shop, suite.buyer2, { listing_id: listing, body: 'Noch da?' })).conversation;
    await post(suite.shop, suite.seller, asked.id, 'Ja.');
    await suite.advance(suite.shop, now());
    const first = await toBuyer2(asked.id);
    expect(first.map((e) => [e.locale, e.subject])).toEqual([['de', 'Anna hat zu Matin table lamp, blue geschrieben']]);
    expect(first[0]!.text).toContain('Anna hat zu Matin table lamp, blue geschrieben.');

    const id = await suite.purchased(suite.shop, suite.buyer2, { listing_id: listing, delivery: { method: 'pickup' } });
    const about = (await start(suite.shop, suite.seller, { order_id: id, body: 'Danke!' })).conversation;
    await suite.advance(suite.shop, now());
    expect((await toBuyer2(about.id)).map((e) => [e.locale, e.subject])).toEqual([['de', 'Anna hat zu Matin table lamp, blue geschrieben']]);
  });

  test('a user writing to support notifies nobody; support’s answer notifies the user', async () => {
    const { conversation } = await start(suite.own, suite.ownSeller, { support: true, body: 'Help' });
    const ran = await suite.advance(suite.own, now());
    expect(ran.filter((r) => r.task === 'notify-messages')).toEqual([]);
    await suite.h.console.support.reply({ conversation: conversation.id, body: 'Here we are.' });
    await suite.advance(suite.own, now());
    const mails = (await emailsTo(suite.h, suite.own.secret, suite.ownSeller.email)).filter((e) => e.template === 'message_notice');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.links).toContain(`https://shop.example/en/account/messages/${conversation.id}`);
    expect(mails[0]!.subject).toBe('The shop’s support wrote to you');
  });
});
