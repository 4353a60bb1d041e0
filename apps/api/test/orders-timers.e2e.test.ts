import { beforeAll, describe, expect, test } from 'vitest';
import { emailsTo, type Harness } from './harness.js';
import { START, STOCKHOLM, ordersSuite, type Market, type Person } from './orders.suite.js';

/**
 * Every order timer through `POST /v1/test-helpers/timers/advance`, on time, twice, late and early.
 * The app's clock stays at START; the helper runs each timer as if at its due time.
 */
const suite = ordersSuite();
let h: Harness;
let shop: Market;
let seller: Person;
let buyer: Person;
beforeAll(() => {
  ({ h, shop, seller, buyer } = suite);
});

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
const at = (ms: number) => new Date(Date.parse(START) + ms);
/** The helper's runs for one order (other tests' timers may fall due in the same window). */
const runsOf = async (until: Date, id: string) => (await suite.advance(shop, until)).filter((r) => r.result.includes(id));
const addJob = (task: string, id: string, runAt: Date) =>
  h.orm.em.getConnection().execute(`select graphile_worker.add_job(?, ?::json, run_at => ?)`, [task, JSON.stringify({ marketplace_id: shop.marketplace.id, order_id: id }), runAt]);
const bought = async () => suite.purchased(shop, buyer, { listing_id: await suite.listing(shop, seller), delivery: { method: 'shipping', address: STOCKHOLM } });

describe('payment expiry (15 minutes)', () => {
  test('payment_expired on time; the stock comes back (the listing is in the shop again), the payment is canceled at the provider; twice, late and early change nothing', async () => {
    const listing = await suite.listing(shop, seller);
    expect((await suite.call(shop, suite.buyer2, 'PUT', `/v1/me/favorites/${listing}`)).statusCode).toBe(204);
    const { order, secret } = await suite.placed(shop, buyer, { listing_id: listing, delivery: { method: 'pickup' } });

    // sold out while reserved: out of search and the listing page; a favourite shows it without stock; the seller's listing stays published
    expect((await suite.call(shop, undefined, 'GET', `/v1/listings/${listing}`)).statusCode).toBe(404);
    expect((await suite.call(shop, undefined, 'GET', `/v1/listings?seller=${seller.id}&limit=100`)).json().items.map((l: { id: string }) => l.id)).not.toContain(listing);
    const saved = (await suite.call(shop, suite.buyer2, 'GET', '/v1/me/favorites')).json().items.find((l: { id: string }) => l.id === listing);
    expect(saved).toMatchObject({ stock: 0, status: 'published' });
    expect((await suite.call(shop, seller, 'GET', `/v1/me/listings/${listing}`)).json()).toMatchObject({ status: 'published', stock: 0 });

    expect(await runsOf(at(15 * MIN - 1000), order.id)).toEqual([]);
    expect(await runsOf(at(15 * MIN), order.id)).toEqual([{ task: 'expire-payment', run_at: at(15 * MIN).toISOString(), result: `order ${order.id}: expire-payment pending_payment → payment_expired` }]);
    const expired = await suite.get(shop, buyer, order.id);
    expect(expired).toMatchObject({ state: 'payment_expired', state_entered_at: at(15 * MIN).toISOString(), available_transitions: [] });
    expect(expired.history.at(-1)).toEqual({ transition: 'expire-payment', from: 'pending_payment', to: 'payment_expired', actor: 'system', at: at(15 * MIN).toISOString() });
    expect((await suite.call(shop, undefined, 'GET', `/v1/listings/${listing}`)).json()).toMatchObject({ id: listing, stock: 1 });

    await h.runJobs(); // cancel-payment: the buyer can no longer pay
    const pay = await h.request({ method: 'POST', url: '/v1/test-helpers/payments/confirm', key: shop.secret, payload: { client_secret: secret, outcome: 'succeeded' } });
    expect(pay.statusCode).toBe(409);

    // twice: the job is gone; a duplicate, or one due early, or late for an order that moved on, changes nothing
    expect(await runsOf(at(30 * MIN), order.id)).toEqual([]);
    await addJob('expire-payment', order.id, at(20 * MIN));
    expect((await runsOf(at(30 * MIN), order.id))[0]!.result).toBe(`order ${order.id} skipped: the order is payment_expired`);
    const paid = await bought();
    await addJob('expire-payment', paid, at(20 * MIN));
    expect((await runsOf(at(30 * MIN), paid))[0]!.result).toBe(`order ${paid} skipped: the order is purchased`);
    const pending = (await suite.placed(shop, buyer, { listing_id: await suite.listing(shop, seller), delivery: { method: 'pickup' } })).order.id;
    await addJob('expire-payment', pending, at(5 * MIN));
    expect((await runsOf(at(5 * MIN), pending))[0]!.result).toBe(`order ${pending} skipped: not due until ${at(15 * MIN).toISOString()}`);
    expect((await suite.get(shop, buyer, pending)).state).toBe('pending_payment');
  });

  test('a payment confirmed after its window ended leaves the order expired, is recorded once and refunded', async () => {
    const { order, secret } = await suite.placed(shop, buyer, { listing_id: await suite.listing(shop, seller), delivery: { method: 'pickup' } });
    await suite.advance(shop, at(15 * MIN));
    // the buyer pays before the cancel-payment job has run
    await suite.pay(shop, secret);
    await h.runJobs(); // refund-order
    const late = (await h.console.orders.get({ id: order.id })).order;
    expect(late).toMatchObject({ state: 'payment_expired', refund: { id: expect.stringMatching(/^re_/) } });
    expect(late.history.map((e: { transition: string; to: string; actor: string }) => `${e.transition}>${e.to}:${e.actor}`)).toEqual([
      'request-payment>pending_payment:buyer',
      'expire-payment>payment_expired:system',
      'confirm-payment>payment_expired:system',
    ]);
    expect((await emailsTo(h, shop.secret, buyer.email)).some((e) => e.links.some((l) => l.endsWith(order.id)))).toBe(false); // no "paid" notice
  });

  test('windows ending together: one run expires every overdue order with its own (their jobs go), each through the table', async () => {
    const orders: string[] = [];
    for (let i = 0; i < 3; i++) orders.push((await suite.placed(shop, buyer, { listing_id: await suite.listing(shop, seller), delivery: { method: 'pickup' } })).order.id as string);
    const ran = (await suite.advance(shop, at(15 * MIN))).filter((r) => orders.some((id) => r.result.includes(id)));
    expect(ran).toHaveLength(1);
    expect(ran[0]!.result).toMatch(/expire-payment pending_payment → payment_expired; with it \d+ other overdue: /);
    for (const id of orders) expect((await suite.get(shop, buyer, id)).history.at(-1)).toEqual({ transition: 'expire-payment', from: 'pending_payment', to: 'payment_expired', actor: 'system', at: at(15 * MIN).toISOString() });
  });
});

describe('the 14- and 60-day timers', () => {
  test('automatic receipt 14 days after it was marked sent (the never-sent timer is gone); received notices', async () => {
    const id = await bought();
    h.clock.advance(2 * DAY);
    await suite.move(shop, seller, id, 'mark-delivered');
    h.clock.set(START);
    expect(await runsOf(at(16 * DAY - 1000), id)).toEqual([]);
    expect(await runsOf(at(16 * DAY), id)).toEqual([{ task: 'auto-receive-order', run_at: at(16 * DAY).toISOString(), result: `order ${id}: mark-received delivered → received` }]);
    const order = await suite.get(shop, buyer, id);
    expect(order.history.at(-1)).toMatchObject({ transition: 'mark-received', from: 'delivered', to: 'received', actor: 'system' });
    const mails = await emailsTo(h, shop.secret, seller.email);
    expect(mails.find((e) => e.links.some((l) => l.endsWith(id)))?.template).toBe('order_received_seller');
    // late, for an order received meanwhile
    await addJob('auto-receive-order', id, at(17 * DAY));
    expect((await runsOf(at(17 * DAY), id))[0]!.result).toBe(`order ${id} skipped: the order is received`);
  });

  test('a paid order never sent is canceled after 14 days and refunded; twice changes nothing', async () => {
    const id = await bought();
    expect(await runsOf(at(14 * DAY - 1000), id)).toEqual([]);
    expect(await runsOf(at(14 * DAY), id)).toEqual([{ task: 'auto-cancel-order', run_at: at(14 * DAY).toISOString(), result: `order ${id}: cancel purchased → canceled` }]);
    await h.runJobs();
    const order = (await h.console.orders.get({ id })).order;
    expect(order).toMatchObject({ state: 'canceled', refund: { id: expect.stringMatching(/^re_/) } });
    expect(order.history.at(-1)).toMatchObject({ transition: 'cancel', actor: 'system', at: at(14 * DAY).toISOString() });
    await addJob('auto-cancel-order', id, at(14 * DAY));
    expect((await runsOf(at(15 * DAY), id))[0]!.result).toBe(`order ${id} skipped: the order is canceled`);
  });

  test('a dispute is canceled after 60 days and refunded; a dispute resolved earlier has no timer left', async () => {
    const id = await bought();
    await suite.move(shop, seller, id, 'mark-delivered');
    await suite.move(shop, buyer, id, 'dispute');
    expect(await runsOf(at(60 * DAY - 1000), id)).toEqual([]);
    expect(await runsOf(at(60 * DAY), id)).toEqual([{ task: 'auto-cancel-dispute', run_at: at(60 * DAY).toISOString(), result: `order ${id}: resolve-canceled disputed → canceled` }]);
    await h.runJobs();
    expect((await h.console.orders.get({ id })).order).toMatchObject({ state: 'canceled', refund: { id: expect.stringMatching(/^re_/) } });

    const resolved = await bought();
    await suite.move(shop, seller, resolved, 'mark-delivered');
    await suite.move(shop, buyer, resolved, 'dispute');
    await h.console.orders.transition({ id: resolved, transition: 'resolve-received' });
    expect(await runsOf(at(61 * DAY), resolved)).toEqual([]);
    expect((await suite.get(shop, buyer, resolved)).state).toBe('received');
  });
});
