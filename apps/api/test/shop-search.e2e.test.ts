import { describe, expect, test } from 'vitest';
import { signUp } from './harness.js';
import { shopSuite } from './shop.suite.js';

/** The shop's search: words, relevance, sorts, filters, prices across currencies, paging, refusals. */
const s = shopSuite();
const { call, onSale, search, ids } = s;

describe('GET /v1/listings', () => {
  test('without q: every listing on sale, newest first, with total', async () => {
    const page = await search('');
    expect(page.items.map((i) => i.title)).toEqual(['Bar stool', 'Ekström lamp', 'Lounge chair', 'School chair', 'Café table']);
    expect(page.total).toBe(5);
    expect(page.next_cursor).toBeUndefined();
  });

  test('q: accents and case ignored, word beginnings, every word must match, terms and descriptions count', async () => {
    expect(await ids('q=cafe')).toEqual(expect.arrayContaining(['Café table', 'Lounge chair', 'Bar stool']));
    expect((await search('q=cafe')).total).toBe(3); // title, description "café", description "cafeteria"
    expect(await ids('q=CA')).toEqual(expect.arrayContaining(['Café table']));
    expect(await ids('q=ekstrom')).toEqual(['Ekström lamp']);
    expect(await ids('q=ecole')).toEqual(['School chair']); // the term École
    expect(await ids('q=moebl')).toEqual([]); // ö folds to o, not oe
    expect(await ids('q=moebler')).toEqual(['Ekström lamp']); // … but moebler is one edit from mobler: a typo
    expect(await ids('q=ekstr%C3%B6m%20m%C3%B6b')).toEqual(['Ekström lamp']); // term name "Ekström Möbler"
    expect(await ids('q=chair%20red')).toEqual(['School chair']); // both words needed: title + colour term
    expect(await ids('q=sofa')).toEqual([]); // only in a draft
  });

  test('relevance: title matches before term matches before description matches', async () => {
    const titles = await ids('q=cafe');
    expect(titles[0]).toBe('Café table');
    expect(titles.slice(1).sort()).toEqual(['Bar stool', 'Lounge chair']);
    expect(await ids('q=artek')).toEqual(['Bar stool', 'Lounge chair']); // both term matches: newest first
    const chairs = await ids('q=chair');
    expect(chairs.slice(0, 2)).toEqual(['Lounge chair', 'School chair']); // titles first
  });

  test('sorts: price across currencies at the day’s rate, popular, newest', async () => {
    // SEK: 1500.00, 1200.00, 900.00; EUR 100.00 = SEK 1150.00; EUR 50.00 = SEK 575.00
    expect(await ids('sort=price_asc')).toEqual(['Ekström lamp', 'Bar stool', 'School chair', 'Lounge chair', 'Café table']);
    expect(await ids('sort=price_desc')).toEqual(['Café table', 'Lounge chair', 'School chair', 'Bar stool', 'Ekström lamp']);
    expect(await ids('sort=newest&q=chair')).toEqual(['Lounge chair', 'School chair']);
    expect((await search('sort=price_asc')).total).toBe(5);
  });

  test('a listing whose currency has no rate is left out of price sorts, and out of their total', async () => {
    const session = (await signUp(s.h, s.m.secret, { email: 'usd@example.com' })).token;
    await s.h.console.marketplace.update({ marketplace: 'shop', settings: { currencies: ['SEK', 'EUR', 'USD'] } });
    const usd = await onSale(session, { title: 'Dollar desk', price: { amount: 100, currency: 'USD' } });
    try {
      const all = await search('');
      expect(all.items.map((i) => i.id)).toContain(usd);
      const byPrice = await search('sort=price_asc');
      expect(byPrice.items.map((i) => i.id)).not.toContain(usd);
      expect(byPrice.total).toBe(all.total - 1);
    } finally {
      await call('POST', `/v1/me/listings/${usd}/close`, { session });
      await s.h.console.marketplace.update({ marketplace: 'shop', settings: { currencies: ['SEK', 'EUR'] } });
      await s.h.runJobs();
    }
  });

  test('filters: category with subcategories, terms, seller, attributes, price range in a currency', async () => {
    expect(await ids(`category=${s.m.category.chairs}`)).toEqual(['Bar stool', 'Lounge chair', 'School chair']);
    expect(await ids(`category=${s.m.category.furniture}`)).toHaveLength(4);
    expect(await ids(`term=${s.m.brand.artek}`)).toEqual(['Bar stool', 'Lounge chair']);
    expect(await ids(`term=${s.m.brand.artek}&term=${s.m.brand.ecole}`)).toEqual(['Bar stool', 'Lounge chair', 'School chair']); // any within a kind
    expect(await ids(`term=${s.m.brand.artek}&term=${s.m.color.red}`)).toEqual(['Bar stool']); // all kinds combined
    expect(await ids(`seller=${s.aliceId}`)).toEqual(['Bar stool', 'School chair', 'Café table']);
    expect(await ids('attr=condition:good')).toEqual(['Bar stool', 'Café table']);
    expect(await ids('attr=condition:good&attr=condition:new')).toEqual(['Bar stool', 'Lounge chair', 'Café table']);
    // default currency SEK: 1000.00..1300.00 → Lounge (1200) and School (EUR 100 = 1150)
    expect(await ids('min_price=100000&max_price=130000')).toEqual(['Lounge chair', 'School chair']);
    // in EUR: 80.00..110.00 = SEK 920..1265
    expect(await ids('min_price=8000&max_price=11000&currency=EUR')).toEqual(['Lounge chair', 'School chair']);
    expect((await search(`category=${s.m.category.chairs}&min_price=100000`)).total).toBe(2);
  });

  test('currency adds display_price converted at the day’s rate (half away from zero)', async () => {
    const page = await search('currency=EUR&sort=price_asc');
    expect(page.items.map((i) => [i.title, i.display_price])).toEqual([
      ['Ekström lamp', { amount: 5000, currency: 'EUR' }],
      ['Bar stool', { amount: 7826, currency: 'EUR' }], // 900 / 11.5 = 78.2608…
      ['School chair', { amount: 10000, currency: 'EUR' }],
      ['Lounge chair', { amount: 10435, currency: 'EUR' }], // 1200 / 11.5 = 104.3478…
      ['Café table', { amount: 13043, currency: 'EUR' }],
    ]);
    expect((await search('')).items[0]!.display_price).toBeUndefined();
  });

  test('cursor paging over ties: no duplicates, no gaps, stable while new listings are published', async () => {
    const session = (await signUp(s.h, s.m.secret, { email: 'tie@example.com' })).token;
    // five listings published at the very same instant: only the id breaks the tie
    const start = s.h.clock.now().getTime();
    const tied: string[] = [];
    for (let i = 0; i < 5; i++) {
      s.h.clock.set(new Date(start));
      tied.push(await onSale(session, { title: `Tied ${i}`, price: { amount: 500, currency: 'SEK' } }));
      s.h.clock.set(new Date(start));
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await search(`limit=3&seller=${(await call('GET', '/v1/me', { session })).json().id}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      seen.push(...page.items.map((i) => i.id));
      cursor = page.next_cursor;
      if (pages++ === 0) await onSale(session, { title: 'Published meanwhile' }); // newer: lands before the cursor
    } while (cursor);
    expect(seen).toHaveLength(5);
    expect(new Set(seen)).toEqual(new Set(tied));
    // price ties across pages too
    const byPrice: string[] = [];
    cursor = undefined;
    do {
      const page = await search(`limit=2&sort=price_asc&max_price=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      byPrice.push(...page.items.map((i) => i.id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(byPrice.sort()).toEqual([...tied].sort());
  });

  test('invalid parameters: 422 listing all of them; a cursor from another query is refused', async () => {
    const res = await call('GET', `/v1/listings?limit=101&sort=cheapest&q=${'x'.repeat(201)}&min_price=-1&currency=USD&attr=nocolon&category=${s.other.category.chairs}`);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.map((e: { location: string }) => e.location).sort()).toEqual(['query.attr.0', 'query.currency', 'query.limit', 'query.min_price', 'query.q', 'query.sort']);
    const unknownRefs = await call('GET', `/v1/listings?category=${s.other.category.chairs}&term=${s.other.brand.artek}`);
    expect(unknownRefs.json().errors.map((e: { location: string }) => e.location).sort()).toEqual(['query.category', 'query.term.0']);
    const first = await search('limit=1');
    const wrong = await call('GET', `/v1/listings?limit=1&sort=price_asc&cursor=${encodeURIComponent(first.next_cursor!)}`);
    expect(wrong.json()).toMatchObject({ status: 422, errors: [{ location: 'query.cursor' }] });
    expect((await call('GET', '/v1/listings?q=%20%21%21')).statusCode).toBe(200); // no words: no filter
  });

  test('publishable keys may search (public data)', async () => {
    expect((await call('GET', '/v1/listings', { key: s.m.publishable })).statusCode).toBe(200);
  });
});
