import { describe, expect, test } from 'vitest';
import pg from 'pg';
import { readCacheSuite } from './read-cache.suite.js';

/**
 * The public read cache and changes to one listing alone: a favourite drops only the answers showing
 * that listing and the popular sorts, in both processes; a search's exact total is kept per process
 * for its filters.
 */
const s = readCacheSuite();
const { L, call, statementsDuring, statementTexts, onSale, changedWhileHeld, seenByBoth, expectSameFor, favourite } = s;

describe('a favourite (a change to one listing alone) drops only the answers that show that listing, and the popular sorts', () => {
  const ids = (r: { json(): { items: { id: string }[] } }) => r.json().items.map((i) => i.id);
  /** Sent by neither A nor B: both answer `urls` from what they kept (the key looked up again first, unmeasured, should its second have passed). */
  async function keptByBoth(urls: string[]) {
    for (const app of [s.a, s.b]) await call(app, 'GET', '/v1/categories');
    const n = await statementsDuring(() => Promise.all(urls.flatMap((url) => [s.a, s.b].map((app) => call(app, 'GET', url)))));
    expect(n, urls.join(' ')).toBe(0);
  }

  test('through B, straight in SQL, rolled back: the listing page, page 2 of a search and popular show the new count; page 1 and the other listings stay kept', async () => {
    // newest first, two a page: page 2 holds the café table
    const first = await call(s.plain, 'GET', '/v1/listings?limit=2');
    const page1 = '/v1/listings?limit=2';
    const page2 = `/v1/listings?limit=2&cursor=${encodeURIComponent(first.json().next_cursor)}`;
    expect(ids(await call(s.plain, 'GET', page2))).toContain(L.cafe);
    expect(ids(first)).not.toContain(L.cafe);
    const popular = '/v1/listings?sort=popular&limit=1';
    const cafe = `/v1/listings/${L.cafe}`;
    const others = [page1, `/v1/listings/${L.ecole}`, `/v1/listings/${L.lamp}?currency=EUR`, '/v1/listings?q=chair&sort=price_asc', '/v1/categories?locale=sv'];
    const byPrice = '/v1/listings?sort=price_asc&limit=5'; // the café table among them
    const all = [page1, page2, popular, cafe, `${cafe}?currency=EUR`, byPrice, ...others];
    await expectSameFor(all);
    const topBefore = ids(await call(s.a, 'GET', popular));
    expect(topBefore).not.toEqual([L.cafe]);

    // saved by two users through B: the café table moves to the top of the popular sort without being on its kept page
    for (const session of [s.alice, s.bob]) expect((await favourite(s.b, 'PUT', L.cafe, session)).statusCode).toBe(204);
    for (const url of [cafe, page2, popular]) expect(await seenByBoth(url)).toBeLessThan(500);
    expect((await call(s.a, 'GET', cafe)).json().favorite_count).toBe(2);
    expect(ids(await call(s.b, 'GET', popular))).toEqual([L.cafe]);
    await keptByBoth(others);
    await expectSameFor(all);

    // forgotten through A
    expect((await favourite(s.a, 'DELETE', L.cafe, s.bob)).statusCode).toBe(204);
    expect(await seenByBoth(`${cafe}?currency=EUR`)).toBeLessThan(500);
    expect((await call(s.b, 'GET', `${cafe}?currency=EUR`)).json().favorite_count).toBe(1);
    await keptByBoth(others);
    await expectSameFor(all);

    // straight in SQL: rolled back, nothing is dropped; committed, it is seen
    const client = new pg.Client({ connectionString: s.h.databaseUrl });
    await client.connect();
    try {
      await client.query('begin');
      await client.query(`update listings set favorite_count = favorite_count + 5 where id = $1`, [L.cafe]);
      await client.query('rollback');
      await new Promise((r) => setTimeout(r, 100)); // time for a notification, were one sent
      await keptByBoth([cafe, page2, popular, ...others]);
      await client.query(`update listings set favorite_count = favorite_count + 5 where id = $1`, [L.cafe]);
      expect(await seenByBoth(page2)).toBeLessThan(500);
      expect((await call(s.a, 'GET', page2)).json().items.find((i: { id: string }) => i.id === L.cafe).favorite_count).toBe(6);
      await keptByBoth(others);
      await expectSameFor(all);
      // a change to anything else of a listing is a change to every answer: the search by price shows it by its new price
      await client.query(`update listings set favorite_count = favorite_count - 5, price_amount = 90000 where id = $1`, [L.cafe]);
      expect(await seenByBoth(byPrice)).toBeLessThan(500);
      expect((await call(s.b, 'GET', page1)).body).toBe((await call(s.plain, 'GET', page1)).body);
      await expectSameFor(all);
    } finally {
      await client.end();
    }
  });

  test('a search read before a favourite on a listing it shows is heard is not kept; one that does not show it is', async () => {
    const shows = '/v1/listings?sort=newest&limit=10'; // the café table among them
    const without = `/v1/listings?category=${s.m.category.lighting}&sort=newest`; // the lamp only
    expect(ids(await call(s.plain, 'GET', shows))).toContain(L.cafe);
    expect(ids(await call(s.plain, 'GET', without))).toEqual([L.lamp]);
    const before = (await call(s.plain, 'GET', `/v1/listings/${L.cafe}`)).json().favorite_count;
    // A's reads of the listings' rows are held once read: the favourite commits (and is heard) while both searches run
    const [old] = await changedWhileHeld(/select \* from listings where .*id = any/, () => Promise.all([call(s.a, 'GET', shows), call(s.a, 'GET', without)]), `update listings set favorite_count = favorite_count + 1 where id = $1`, [L.cafe]);
    expect(old!.json().items.find((i: { id: string }) => i.id === L.cafe).favorite_count).toBe(before); // read before the change
    await call(s.a, 'GET', '/v1/categories');
    expect(await statementsDuring(() => call(s.a, 'GET', without))).toBe(0);
    expect(await statementsDuring(() => call(s.a, 'GET', shows))).toBeGreaterThan(0);
    const next = await call(s.a, 'GET', shows);
    expect(next.json().items.find((i: { id: string }) => i.id === L.cafe).favorite_count).toBe(before + 1);
    expect(next.body).toBe((await call(s.plain, 'GET', shows)).body);
  });
});

describe("a search's exact total is kept per process for its filters", () => {
  test('another sort or page of the same filters does not count again; a listing put on sale is counted in both processes', async () => {
    // (price sorts add a filter of their own: a priced listing)
    const words = '/v1/listings?q=chair&limit=1';
    const other = '/v1/listings?q=chair&sort=newest&limit=1';
    const counts = (sent: string[]) => sent.filter((q) => /select count\(\*\)/.test(q)).length;
    expect(counts(await statementTexts(() => call(s.a, 'GET', words)))).toBeGreaterThan(0);
    const sent = await statementTexts(() => call(s.a, 'GET', other));
    expect(sent.length).toBeGreaterThan(0); // its page is read
    expect(counts(sent)).toBe(0);
    await expectSameFor([words, other]);
    const before = (await call(s.plain, 'GET', other)).json().total;
    // a favourite counts nothing: the kept count stays
    await favourite(s.b, 'PUT', L.ecole, s.bob);
    expect(counts(await statementTexts(() => call(s.a, 'GET', `${other}&currency=EUR`)))).toBe(0);
    await onSale(s.bob, { title: 'Windsor chair', description: 'Spindles.', category_id: s.m.category.chairs, price: { amount: 30000, currency: 'SEK' } });
    for (const url of [words, other, `${other}&currency=EUR`]) expect(await seenByBoth(url)).toBeLessThan(500);
    expect((await call(s.b, 'GET', other)).json().total).toBe(before + 1);
    await expectSameFor([words, other, `${other}&currency=EUR`]);
  });
});
