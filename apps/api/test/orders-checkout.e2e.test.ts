import { beforeAll, describe, expect, test } from 'vitest';
import type { Harness } from './harness.js';
import { GOTHENBURG, STOCKHOLM, ordersSuite, type Market, type Person } from './orders.suite.js';

/** Checkout: quote = place for every line item code, the delivery rules (spec, order rules 1–5). */
const suite = ordersSuite();
let h: Harness;
let shop: Market;
let own: Market;
let seller: Person;
let buyer: Person;
beforeAll(() => {
  ({ h, shop, own, seller, buyer } = suite);
});

/** Quotes, then places the same body: both must carry the same currency, line items and total. */
async function quoteThenPlace(m: Market, who: Person, body: Record<string, unknown>) {
  const quote = await suite.quote(m, who, body);
  expect(quote.statusCode, quote.body).toBe(200);
  const { order, secret } = await suite.placed(m, who, body);
  expect({ currency: order.currency, total: order.total, line_items: order.line_items }).toEqual(quote.json());
  return { quote: quote.json(), order, secret };
}

const problem = (res: Awaited<ReturnType<Harness['request']>>) => ({ status: res.statusCode, code: res.json().code, errors: res.json().errors.map((e: { location: string }) => e.location), detail: res.json().detail });

describe('quote = place, for every line item code', () => {
  test('item and table shipping: the first option by default, the zone from the postal prefix; the placed order as the spec shapes it', async () => {
    const id = await suite.listing(shop, seller, {}, 'small');
    const at = h.clock.now().toISOString();
    const { quote, order, secret } = await quoteThenPlace(shop, buyer, { listing_id: id, delivery: { method: 'shipping', address: STOCKHOLM } });
    expect(quote).toEqual({
      currency: 'SEK',
      total: 103900,
      line_items: [
        { code: 'item', label: expect.stringMatching(/^Lamp /), unit_price: 100000, quantity: 1, amount: 100000 },
        { code: 'shipping', label: 'Standard delivery', unit_price: 3900, quantity: 1, amount: 3900 },
      ],
    });
    expect(order).toEqual({
      id: expect.any(String),
      listing_id: id,
      buyer_id: buyer.id,
      seller_id: seller.id,
      sent_by: 'seller',
      state: 'pending_payment',
      state_entered_at: at,
      quantity: 1,
      currency: 'SEK',
      total: 103900,
      line_items: quote.line_items,
      delivery: { method: 'shipping', option: 'standard', ...STOCKHOLM },
      available_transitions: [],
      history: [{ transition: 'request-payment', from: '(new)', to: 'pending_payment', actor: 'buyer', at }],
      created_at: at,
    });
    expect(secret).toMatch(/^pi_\w+_secret_\w+$/);
  });

  test('another option, zone and currency: express to Stockholm in EUR, Gothenburg and Norway by the standard rate', async () => {
    const id = await suite.listing(shop, seller, { stock: 3 }, 'small');
    const express = await quoteThenPlace(shop, buyer, { listing_id: id, currency: 'EUR', delivery: { method: 'shipping', option: 'express', address: STOCKHOLM } });
    // 100000 SEK / 11.5 = 8695.65… → 8696; 7900 / 11.5 = 686.95… → 687 (half away from zero)
    expect(express.quote.line_items.map((l: { code: string; amount: number }) => [l.code, l.amount])).toEqual([
      ['item', 8696],
      ['shipping', 687],
    ]);
    expect(express.order).toMatchObject({ currency: 'EUR', total: 9383, delivery: { option: 'express' } });
    const gbg = await quoteThenPlace(shop, buyer, { listing_id: id, delivery: { method: 'shipping', address: GOTHENBURG } });
    expect(gbg.quote.line_items[1]).toMatchObject({ code: 'shipping', amount: 4900 });
    const oslo = await quoteThenPlace(shop, buyer, { listing_id: id, delivery: { method: 'shipping', address: { country: 'NO', postal_code: '0150' } } });
    expect(oslo.quote.line_items[1]).toMatchObject({ code: 'shipping', amount: 9900 });
  });

  test('shipping_address_needed: the quote shows it; placing without an address fails at body.delivery.address', async () => {
    const id = await suite.listing(shop, seller, {}, 'small');
    const quote = await suite.quote(shop, buyer, { listing_id: id, delivery: { method: 'shipping' } });
    expect(quote.json()).toEqual({
      currency: 'SEK',
      total: 100000,
      line_items: [expect.objectContaining({ code: 'item' }), { code: 'shipping_address_needed', label: expect.any(String), unit_price: 0, quantity: 1, amount: 0 }],
    });
    const place = await suite.place(shop, buyer, { listing_id: id, delivery: { method: 'shipping' } });
    expect(problem(place)).toMatchObject({ status: 422, code: 'validation_failed', errors: ['body.delivery.address'] });
    expect((await suite.call(shop, seller, 'GET', `/v1/me/listings/${id}`)).json().stock).toBe(1); // nothing reserved
  });

  test('shipping_quote: no price in the table for the size and zone; the order is placed and the quote follows', async () => {
    const id = await suite.listing(shop, seller, { delivery: { shipping: {} } }, 'large');
    const { quote, order } = await quoteThenPlace(shop, buyer, { listing_id: id, delivery: { address: GOTHENBURG } });
    expect(quote.line_items.map((l: { code: string; amount: number }) => [l.code, l.amount])).toEqual([
      ['item', 100000],
      ['shipping_quote', 0],
    ]);
    expect(order.delivery.method).toBe('shipping'); // the listing's one method, omitted (rule 3)
    const priced = await quoteThenPlace(shop, buyer, { listing_id: await suite.listing(shop, seller, { delivery: { shipping: {} } }, 'large'), delivery: { address: STOCKHOLM } });
    expect(priced.quote.line_items[1]).toMatchObject({ code: 'shipping', amount: 49900 });
  });

  test('listing-priced shipping (no table): the first item, then additional_item_price per extra item, converted', async () => {
    const ownSeller = suite.ownSeller;
    const ownBuyer = suite.ownBuyer;
    const id = await suite.listing(own, ownSeller, { stock: 5 });
    const three = await quoteThenPlace(own, ownBuyer, { listing_id: id, quantity: 3, delivery: { method: 'shipping', address: GOTHENBURG } });
    expect(three.quote).toEqual({
      currency: 'SEK',
      total: 313900,
      line_items: [
        expect.objectContaining({ code: 'item', unit_price: 100000, quantity: 3, amount: 300000 }),
        { code: 'shipping', label: 'Shipping', unit_price: 13900, quantity: 1, amount: 13900 },
      ],
    });
    // without an address the listing's own price is known: shown, but placing still needs the address
    const noAddress = await suite.quote(own, ownBuyer, { listing_id: id, delivery: { method: 'shipping' }, currency: 'EUR' });
    expect(noAddress.json().line_items[1]).toMatchObject({ code: 'shipping', amount: 861 });
    expect(problem(await suite.place(own, ownBuyer, { listing_id: id, delivery: { method: 'shipping' } })).errors).toEqual(['body.delivery.address']);
  });

  test('collect: a listing stored at a site where buyers pick up is collected there for free; the marketplace fulfils', async () => {
    const site = (await h.console.sites.create({ marketplace: 'shop', site: { kind: 'warehouse', name: 'Depot', line1: 'Lagerv. 2', postal_code: '12345', city: 'Huddinge', country: 'SE', buyer_pickup: true } })).site;
    const id = await suite.listing(shop, seller, {}, 'small');
    await h.console.listings.custody({ id, custody: 'stored', site: site.id });
    const quote = await suite.quote(shop, buyer, { listing_id: id });
    expect(problem(quote)).toMatchObject({ status: 422, errors: ['body.delivery.method'], detail: 'body.delivery.method: Choose how to get it: shipping, collect.' });
    expect(problem(await suite.quote(shop, buyer, { listing_id: id, delivery: { method: 'pickup' } })).detail).toBe('body.delivery.method: This listing offers: shipping, collect.');
    const { quote: q, order } = await quoteThenPlace(shop, buyer, { listing_id: id, delivery: { method: 'collect' } });
    expect(q.line_items[1]).toEqual({ code: 'collect', label: 'Collect at Depot, Huddinge', unit_price: 0, quantity: 1, amount: 0 });
    expect(order.delivery).toEqual({ method: 'collect' });
    expect((await h.console.orders.get({ id: order.id })).order.fulfilment).toBe('marketplace');
  });

  test('pickup and buyer-arranged delivery have no delivery line', async () => {
    const id = await suite.listing(shop, seller, { delivery: { pickup: true, buyer_arranged: true } });
    const { quote, order } = await quoteThenPlace(shop, buyer, { listing_id: id, delivery: { method: 'buyer_arranged' } });
    expect(quote.line_items.map((l: { code: string }) => l.code)).toEqual(['item']);
    expect(order.delivery).toEqual({ method: 'buyer_arranged' });
  });
});

describe('what is refused', () => {
  test('amounts beyond one payment’s limit (99 999 999) are refused where they are set; a quote too large for one payment names the field that made it', async () => {
    const create = (body: Record<string, unknown>) =>
      suite.call(own, suite.ownSeller, 'POST', '/v1/me/listings', { title: 'Huge', price: { amount: 100000, currency: 'SEK' }, location: { country: 'SE' }, delivery: { pickup: true }, ...body });
    // the listing: 10¹² with shipping 2⁵³−1, both refused at once, at the fields sent
    const huge = await create({ price: { amount: 1e12, currency: 'SEK' }, delivery: { shipping: { price: 2 ** 53 - 1, additional_item_price: 100_000_000 } } });
    expect(problem(huge)).toMatchObject({ status: 422, errors: ['body.price.amount', 'body.delivery.shipping.price', 'body.delivery.shipping.additional_item_price'] });
    const atLimit = await create({ price: { amount: 99_999_999, currency: 'SEK' }, delivery: { shipping: { price: 99_999_999 } } });
    expect(atLimit.statusCode, atLimit.body).toBe(201);
    // one item with its shipping over the limit cannot go on sale; at the limit it can
    const over = (await create({ price: { amount: 99_999_999, currency: 'SEK' }, delivery: { shipping: { price: 1 } } })).json().id as string;
    const refused = await suite.call(own, suite.ownSeller, 'POST', `/v1/me/listings/${over}/publish`, {});
    expect(problem(refused)).toMatchObject({ status: 422, errors: ['body.delivery.shipping.price'] }); // publish names the listing's fields, as for a missing title
    const edge = await suite.listing(own, suite.ownSeller, { price: { amount: 99_990_099, currency: 'SEK' }, stock: 2 }); // + 9 900 shipping = 99 999 999
    const one = await suite.quote(own, suite.ownBuyer, { listing_id: edge, delivery: { method: 'shipping', address: GOTHENBURG }, currency: 'SEK' });
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json().total).toBeLessThanOrEqual(99_999_999);
    // two of them are too much for one payment: said at body.quantity (never at a field the client did not send), quote and place alike
    for (const res of [await suite.quote(own, suite.ownBuyer, { listing_id: edge, quantity: 2, delivery: { method: 'pickup' } }), await suite.place(own, suite.ownBuyer, { listing_id: edge, quantity: 2, delivery: { method: 'pickup' } })]) {
      expect(problem(res)).toMatchObject({ status: 422, errors: ['body.quantity'] });
    }
    // a seller's price step and the team's offer are bounded the same way
    expect(problem(await create({ price_schedule: [{ months: 1, amount: 100_000_000 }] })).errors).toContain('body.price_schedule.0.amount');
    await expect(h.console.listings.offer({ id: edge, amount: 100_000_000, currency: 'SEK' })).rejects.toThrow(/99999999/);
  });

  test('every wrong field at once (422): method not offered, unknown option, a voucher that does not exist', async () => {
    const id = await suite.listing(shop, seller, {}, 'small');
    const res = await suite.quote(shop, buyer, { listing_id: id, delivery: { method: 'collect', option: 'drone' }, voucher_code: 'NOPE' });
    expect(problem(res)).toMatchObject({ status: 422, errors: ['body.delivery.method', 'body.voucher_code'] });
    const option = await suite.quote(shop, buyer, { listing_id: id, delivery: { method: 'shipping', option: 'drone', address: STOCKHOLM } });
    expect(res.json().errors[1]).toEqual({ location: 'body.voucher_code', message: 'There is no voucher with this code.', value: 'NOPE' });
    expect(option.json().errors).toEqual([{ location: 'body.delivery.option', message: 'Must be one of the shipping options: standard, express.', value: 'drone' }]);
    const own = await suite.quote(suite.own, suite.ownBuyer, { listing_id: await suite.listing(suite.own, suite.ownSeller), delivery: { method: 'shipping', option: 'standard', address: GOTHENBURG } });
    expect(own.json().errors[0]).toMatchObject({ location: 'body.delivery.option', message: 'This listing prices its own shipping; it has no options.' });
    const schema = await suite.place(shop, buyer, { listing_id: 'x', quantity: 101, currency: 'USD', delivery: { method: 'teleport', address: { country: 'se' } } });
    expect(problem(schema).errors).toEqual(['body.listing_id', 'body.quantity', 'body.currency', 'body.delivery.method', 'body.delivery.address.country', 'body.delivery.address.postal_code']);
  });

  test('409: your own listing, delivery impossible, more than the stock, not for sale; 404: unknown or never on sale', async () => {
    const id = await suite.listing(shop, seller, { stock: 2 }, 'small');
    for (const call of [suite.quote, suite.place]) {
      expect(problem(await call(shop, seller, { listing_id: id, delivery: { method: 'pickup' } }))).toMatchObject({ status: 409, detail: 'This is your own listing: you cannot buy it.' });
      expect(problem(await call(shop, buyer, { listing_id: id, delivery: { method: 'shipping', address: { country: 'DE', postal_code: '10115' } } }))).toMatchObject({
        status: 409,
        detail: 'This item cannot be shipped to DE 10115: the marketplace does not deliver there.',
      });
      expect(problem(await call(shop, buyer, { listing_id: id, quantity: 3, delivery: { method: 'pickup' } }))).toMatchObject({ status: 409, detail: 'Only 2 of this listing are left; you asked for 3.' });
    }
    const closed = await suite.listing(shop, seller, {});
    await suite.call(shop, seller, 'POST', `/v1/me/listings/${closed}/close`);
    expect(problem(await suite.place(shop, buyer, { listing_id: closed }))).toMatchObject({ status: 409, detail: 'This listing is not for sale now.' });
    const draft = (await suite.call(shop, seller, 'POST', '/v1/me/listings', { title: 'Draft' })).json().id;
    expect(problem(await suite.place(shop, buyer, { listing_id: draft }))).toMatchObject({ status: 404 });
    expect(problem(await suite.place(shop, buyer, { listing_id: '00000000-0000-7000-8000-000000000000' }))).toMatchObject({ status: 404 });
  });

  test('sold out and reserved are told apart (rule 4)', async () => {
    const id = await suite.listing(shop, seller, {});
    const { secret } = await suite.placed(shop, buyer, { listing_id: id, delivery: { method: 'pickup' } });
    expect(problem(await suite.place(shop, suite.buyer2, { listing_id: id, delivery: { method: 'pickup' } }))).toMatchObject({
      status: 409,
      detail: 'This listing is reserved by another buyer who is paying for it now; it comes back if their payment window (15 minutes) ends unpaid.',
    });
    await suite.pay(shop, secret);
    expect(problem(await suite.place(shop, suite.buyer2, { listing_id: id, delivery: { method: 'pickup' } }))).toMatchObject({ status: 409, detail: 'This listing is sold out.' });
  });
});
