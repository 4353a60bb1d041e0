import { beforeAll, describe, expect, test } from 'vitest';
import { emailsTo, type Harness } from './harness.js';
import { START, ordersSuite, type Market, type Person } from './orders.suite.js';

/** Vouchers: the console, each rule's own reason at body.voucher_code, uses exact under concurrency and given back on expiry. */
const suite = ordersSuite({ poolMax: 12 });
let h: Harness;
let shop: Market;
let seller: Person;
let buyer: Person;
let buyer2: Person;
beforeAll(() => {
  ({ h, shop, seller, buyer, buyer2 } = suite);
});

const DAY = 24 * 3600_000;
const create = (voucher: Record<string, unknown>) => h.console.vouchers.create({ marketplace: 'shop', voucher: voucher as never });
const pickup = (listing_id: string, voucher_code?: string) => ({ listing_id, delivery: { method: 'pickup' }, ...(voucher_code ? { voucher_code } : {}) });
const usesOf = async (code: string) => (await h.console.vouchers.list({ marketplace: 'shop' })).items.find((v) => v.code === code)?.uses;
const reason = async (res: Awaited<ReturnType<Harness['request']>>) => {
  expect(res.statusCode, res.body).toBe(422);
  expect(res.json().errors).toHaveLength(1);
  expect(res.json().errors[0].location).toBe('body.voucher_code');
  return res.json().errors[0].message as string;
};

describe('the console', () => {
  test('create and list; codes are case-insensitive and unique; the record is checked as a whole', async () => {
    const { voucher } = await create({ code: 'Spring10', percent: 10, min_total: 50000, currency: 'SEK', ends_at: '2031-06-01T00:00:00Z', max_uses: 100, once_per_buyer: true });
    expect(voucher).toEqual({ id: expect.any(String), code: 'Spring10', percent: 10, currency: 'SEK', min_total: 50000, ends_at: '2031-06-01T00:00:00.000Z', max_uses: 100, once_per_buyer: true, uses: 0, created_at: START });
    await expect(create({ code: 'SPRING10', amount: 100, currency: 'SEK' })).rejects.toMatchObject({ cause: { code: 'conflict' } });
    await expect(create({ code: 'BOTH', percent: 5, amount: 100, currency: 'SEK' })).rejects.toThrow(/Give either percent or amount/);
    await expect(create({ code: 'NOCUR', amount: 100 })).rejects.toThrow(/A currency is needed with amount or min_total/);
    await expect(create({ code: 'USD', amount: 100, currency: 'USD' })).rejects.toMatchObject({ cause: { errors: [expect.objectContaining({ location: 'currency', message: "Must be one of the marketplace's currencies: SEK, EUR." })] } });
    await expect(create({ code: 'bad code!', percent: 5 })).rejects.toThrow(/Letters, digits/);
    const listed = (await h.console.vouchers.list({ marketplace: 'shop' })).items;
    expect(listed.map((v: { code: string }) => v.code)).toContain('Spring10');
  });
});

describe('applying a voucher (quote = place)', () => {
  test('percent off the items, any case of the code; a fixed amount converts to the order currency and never exceeds the items', async () => {
    await create({ code: 'TENOFF', percent: 12.5 });
    await create({ code: 'EUR5', amount: 500, currency: 'EUR' });
    await create({ code: 'HUGE', amount: 10_000_000, currency: 'SEK' });
    const id = await suite.listing(shop, seller, { stock: 10 });
    const quote = (await suite.quote(shop, buyer, pickup(id, 'tenoff'))).json();
    expect(quote.line_items).toEqual([expect.objectContaining({ code: 'item', amount: 100000 }), { code: 'voucher', label: 'Voucher TENOFF', unit_price: -12500, quantity: 1, amount: -12500 }]);
    expect(quote.total).toBe(87500);
    const { order } = await suite.placed(shop, buyer, pickup(id, 'tenoff'));
    expect({ total: order.total, line_items: order.line_items }).toEqual({ total: quote.total, line_items: quote.line_items });
    expect((await suite.quote(shop, buyer, pickup(id, 'eur5'))).json().line_items[1]).toMatchObject({ code: 'voucher', amount: -5750 }); // 500 EUR cents × 11.5
    expect((await suite.quote(shop, buyer, { ...pickup(id, 'EUR5'), currency: 'EUR' })).json().line_items[1]).toMatchObject({ amount: -500 });
    expect((await suite.quote(shop, buyer, pickup(id, 'HUGE'))).json()).toMatchObject({ total: 0, line_items: [expect.anything(), expect.objectContaining({ amount: -100000 })] });
  });

  test('each rule that fails gives its own reason', async () => {
    const id = await suite.listing(shop, seller, { stock: 10, price: { amount: 40000, currency: 'SEK' } });
    await create({ code: 'LATER', percent: 5, starts_at: new Date(Date.parse(START) + DAY).toISOString() });
    await create({ code: 'GONE', percent: 5, ends_at: START });
    await create({ code: 'BIGSPEND', percent: 5, min_total: 50000, currency: 'SEK' });
    await create({ code: 'ONCE', percent: 5, once_per_buyer: true });
    await create({ code: 'LAST', percent: 5, max_uses: 1 });
    expect(await reason(await suite.quote(shop, buyer, pickup(id, 'NOPE')))).toBe('There is no voucher with this code.');
    expect(await reason(await suite.quote(shop, buyer, pickup(id, 'later')))).toBe('This voucher can be used from 2031-03-04.');
    expect(await reason(await suite.place(shop, buyer, pickup(id, 'gone')))).toBe('This voucher expired on 2031-03-03.');
    expect(await reason(await suite.place(shop, buyer, pickup(id, 'bigspend')))).toBe('This voucher needs items worth at least 500.00 SEK.');
    expect((await suite.quote(shop, buyer, { ...pickup(id, 'bigspend'), quantity: 2 })).statusCode).toBe(200); // 2 × 400 SEK
    await suite.placed(shop, buyer, pickup(id, 'once'));
    expect(await reason(await suite.quote(shop, buyer, pickup(id, 'ONCE')))).toBe('You have used this voucher already; it can be used once per buyer.');
    expect((await suite.quote(shop, buyer2, pickup(id, 'ONCE'))).statusCode).toBe(200);
    await suite.placed(shop, buyer2, pickup(id, 'last'));
    expect(await reason(await suite.place(shop, buyer, pickup(id, 'last')))).toBe('This voucher has been used up.');
    expect(await usesOf('LAST')).toBe(1);
    expect((await suite.call(shop, seller, 'GET', `/v1/me/listings/${id}`)).json().stock).toBe(8); // refused places reserved nothing
  });

  test('uses are exact under concurrency and come back when a payment expires', async () => {
    await create({ code: 'RUSH', amount: 1000, currency: 'SEK', max_uses: 3 });
    const listings = await Promise.all(Array.from({ length: 10 }, () => suite.listing(shop, seller)));
    const results = await Promise.all(listings.map((id) => suite.place(shop, buyer, pickup(id, 'rush'))));
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 201, 201, 422, 422, 422, 422, 422, 422, 422]);
    for (const r of results.filter((x) => x.statusCode === 422)) expect(r.json().errors[0].message).toBe('This voucher has been used up.');
    expect(await usesOf('RUSH')).toBe(3);

    await suite.advance(shop, new Date(Date.parse(START) + 15 * 60_000)); // every payment window ends
    expect(await usesOf('RUSH')).toBe(0);
    const free = listings.filter((_id, i) => results[i]!.statusCode === 201);
    expect((await suite.place(shop, buyer2, pickup(free[0]!, 'RUSH'))).statusCode).toBe(201);
  });
});

// last: its timers move the clock 14 days on
describe('a zero total', () => {
  test('a voucher covering the whole total: placed and purchased at once, no provider payment, paid notices and the never-sent timer; canceling returns the stock', async () => {
    await create({ code: 'GIFT', amount: 100000, currency: 'SEK' });
    const id = await suite.listing(shop, seller);
    const quote = (await suite.quote(shop, buyer, pickup(id, 'gift'))).json();
    expect(quote.total).toBe(0);
    const res = await suite.place(shop, buyer, pickup(id, 'gift'));
    expect(res.statusCode, res.body).toBe(201);
    const { order, payment } = res.json();
    expect(payment).toEqual({ client_secret: '' });
    expect(order).toMatchObject({ state: 'purchased', total: 0, line_items: quote.line_items, available_transitions: ['mark-received-early'] });
    expect(order.history.map((e: { transition: string; to: string; actor: string }) => `${e.transition}>${e.to}:${e.actor}`)).toEqual(['request-payment>pending_payment:buyer', 'confirm-payment>purchased:system']);
    const stored = (await h.console.orders.get({ id: order.id })).order;
    expect(stored.payment.id).toBeNull();
    expect(await usesOf('GIFT')).toBe(1);
    const mails = await emailsTo(h, shop.secret, buyer.email);
    expect(mails.filter((e) => e.links.some((l) => l.endsWith(`/orders/${order.id}`))).map((e) => e.template)).toEqual(['order_paid_buyer']);
    expect((await suite.call(shop, seller, 'GET', `/v1/me/listings/${id}`)).json()).toMatchObject({ stock: 0 });
    // the never-sent timer runs as for any paid order; nothing to refund, the unit comes back
    const ran = await suite.advance(shop, new Date(Date.parse(START) + 14 * DAY));
    expect(ran.filter((r) => r.result.includes(order.id))).toEqual([expect.objectContaining({ task: 'auto-cancel-order', result: `order ${order.id}: cancel purchased → canceled` })]);
    await h.runJobs();
    expect((await h.console.orders.get({ id: order.id })).order).toMatchObject({ state: 'canceled', refund: null });
    expect((await suite.call(shop, seller, 'GET', `/v1/me/listings/${id}`)).json()).toMatchObject({ stock: 1, status: 'published' });
    expect((await suite.call(shop, buyer2, 'GET', `/v1/listings/${id}`)).statusCode).toBe(200);
  });
});
