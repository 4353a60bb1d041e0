import { describe, expect, test } from 'vitest';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { readCacheSuite } from './read-cache.suite.js';

/**
 * The public read cache (apps/api/src/http/read-cache.ts): public reads without a session are kept
 * per API process and answered — 200 or 304 — without the procedure, until a change to what they
 * read commits (NOTIFY `hm_reads_changed` / `hm_key_changed`). Every kept answer is checked against
 * a process that keeps nothing (same body, same ETag), across changes made through either of two API
 * processes and straight in SQL, a rolled-back change, languages, currencies, key kinds and days.
 * Favourites and the kept search totals: read-cache-favourites.e2e.test.ts.
 */
const s = readCacheSuite();
const { L, call, statementsDuring, changedWhileHeld, seenByBoth } = s;

const urls = () => [
  '/v1/categories',
  '/v1/categories?locale=sv',
  '/v1/catalog-terms?kind=brand',
  '/v1/catalog-terms?kind=brand&locale=sv',
  '/v1/catalog-terms/brand/ekstrom',
  '/v1/locations',
  '/v1/pages',
  '/v1/listings?limit=5',
  '/v1/listings?limit=5&currency=EUR',
  '/v1/listings?q=chair&sort=price_asc',
  `/v1/listings?category=${s.m.category.chairs}&term=${s.m.brand.artek}`,
  `/v1/listings/${L.ecole}`,
  `/v1/listings/${L.ecole}?currency=SEK`,
  `/v1/listings/${L.lamp}?currency=EUR`,
];

/** Each URL through A and B (twice: the second from what they kept) equals the uncached process's answer: body, tag and caching headers. */
async function expectSameAsUncached(key: string) {
  for (const url of urls()) {
    const want = await call(s.plain, 'GET', url, { key });
    expect(want.statusCode, `${url}: ${want.body}`).toBe(200);
    for (const app of [s.a, s.b]) {
      for (let i = 0; i < 2; i++) {
        const got = await call(app, 'GET', url, { key });
        const seen = (r: typeof got) => ({ url, status: r.statusCode, body: r.body, tag: r.headers.etag, cacheControl: r.headers['cache-control'], vary: r.headers.vary, type: r.headers['content-type'] });
        expect(seen(got)).toEqual(seen(want));
      }
    }
  }
}

describe('kept answers are the uncached answers', () => {
  test('every public read, by both key kinds, in both processes: the same body and ETag as a process that keeps nothing', async () => {
    await expectSameAsUncached(s.m.publishable);
    await expectSameAsUncached(s.m.secret);
  });

  test('a kept read sends no statement, its 304 neither; the query in another order is the same kept answer', async () => {
    const url = `/v1/listings?limit=5&currency=EUR&category=${s.m.category.chairs}`;
    const first = await call(s.a, 'GET', url);
    let again: Awaited<ReturnType<typeof call>> | undefined;
    let notModified: Awaited<ReturnType<typeof call>> | undefined;
    let reordered: Awaited<ReturnType<typeof call>> | undefined;
    const statements = await statementsDuring(async () => {
      again = await call(s.a, 'GET', url);
      notModified = await call(s.a, 'GET', url, { tag: first.headers.etag as string });
      reordered = await call(s.a, 'GET', `/v1/listings?category=${s.m.category.chairs}&currency=EUR&limit=5`);
    });
    expect(statements).toBe(0);
    expect(again!.body).toBe(first.body);
    expect(notModified!.statusCode).toBe(304);
    expect(notModified!.body).toBe('');
    expect(notModified!.headers.etag).toBe(first.headers.etag);
    expect(notModified!.headers['cache-control']).toBe('public, max-age=5, stale-while-revalidate=60');
    expect(reordered!.headers.etag).toBe(first.headers.etag);
    // another language, currency or key kind is another answer, read once
    for (const other of [url.replace('EUR', 'SEK'), `${url}&locale=sv`]) expect(await statementsDuring(() => call(s.a, 'GET', other))).toBeGreaterThan(0);
    expect(await statementsDuring(() => call(s.a, 'GET', url, { key: s.m.secret }))).toBeGreaterThan(0);
  });

  test('a read with X-User-Session is never kept (personal: favourites), nor is a refusal or a 404', async () => {
    await call(s.a, 'PUT', `/v1/me/favorites/${L.lamp}`, { key: s.m.secret, session: s.alice });
    const url = `/v1/listings/${L.lamp}`;
    for (let i = 0; i < 2; i++) {
      let res: Awaited<ReturnType<typeof call>> | undefined;
      expect(await statementsDuring(async () => (res = await call(s.a, 'GET', url, { key: s.m.secret, session: s.alice })))).toBeGreaterThan(0);
      expect(res!.json().favorited).toBe(true);
      expect(res!.headers['cache-control']).toBe('private, no-store');
    }
    // kept without the session, never handed to it
    await call(s.a, 'GET', url, { key: s.m.secret });
    expect((await call(s.a, 'GET', url, { key: s.m.secret, session: s.bob })).json().favorited).toBe(false);
    for (let i = 0; i < 2; i++) expect(await statementsDuring(() => call(s.a, 'GET', '/v1/listings/0190c0c0-0000-7000-8000-000000000000'))).toBeGreaterThan(0);
    for (let i = 0; i < 2; i++) expect((await call(s.a, 'GET', '/v1/listings?limit=500')).statusCode).toBe(422);
  });

  test("the day's rates: a kept currency answer is not served past midnight (tomorrow's rate set ahead applies then)", async () => {
    const url = `/v1/listings/${L.ecole}?currency=SEK`;
    const today = (await call(s.a, 'GET', url)).json().display_price;
    expect(today).toEqual({ amount: 115000, currency: 'SEK' });
    const hours = (24 - s.h.clock.now().getUTCHours()) * 3600_000;
    s.h.clock.advance(hours);
    const tomorrow = await call(s.a, 'GET', url);
    expect(tomorrow.json().display_price).toEqual({ amount: 100000, currency: 'SEK' });
    expect(tomorrow.body).toBe((await call(s.plain, 'GET', url)).body);
  });
});

describe('a change commits → the next read in every process is the new answer', () => {
  test('through process A: a listing closed (search, its page, a category) and a display name changed, seen by A and B', async () => {
    const search = `/v1/listings?category=${s.m.category.chairs}`;
    const page = `/v1/listings/${L.lounge}`;
    const seller = `/v1/listings/${L.cafe}`;
    for (const url of [search, page, seller]) for (const app of [s.a, s.b]) await call(app, 'GET', url); // kept
    const before = (await call(s.b, 'GET', search)).json().items.map((i: { id: string }) => i.id);
    expect(before).toContain(L.lounge);
    const closed = await call(s.a, 'POST', `/v1/me/listings/${L.lounge}/close`, { key: s.m.secret, session: s.bob, payload: {} });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(await seenByBoth(search)).toBeLessThan(500);
    expect((await call(s.b, 'GET', search)).json().items.map((i: { id: string }) => i.id)).not.toContain(L.lounge);
    expect(await seenByBoth(page)).toBeLessThan(500);
    expect((await call(s.b, 'GET', page)).statusCode).toBe(404);
    const renamed = await call(s.a, 'PATCH', '/v1/me', { key: s.m.secret, session: s.alice, payload: { display_name: 'Alice & Co' } });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(await seenByBoth(seller)).toBeLessThan(500);
    expect((await call(s.b, 'GET', seller)).json().seller.display_name).toBe('Alice & Co');
  });

  test('through the console: categories, terms, a site and marketplace settings', async () => {
    const urls = ['/v1/categories?locale=sv', '/v1/catalog-terms?kind=brand', '/v1/locations', `/v1/listings/${L.ecole}`];
    for (const url of urls) for (const app of [s.a, s.b]) await call(app, 'GET', url);
    await s.h.console.categories.import({ marketplace: 'shop', items: [{ slug: 'lamps', names: { en: 'Lamps', sv: 'Lampor' }, parent: 'lighting', position: 1 }] });
    expect(await seenByBoth(urls[0]!)).toBeLessThan(500);
    await s.h.console.terms.import({ marketplace: 'shop', items: [{ kind: 'brand', slug: 'hay', names: { en: 'Hay' }, descriptions: {} }] });
    expect(await seenByBoth(urls[1]!)).toBeLessThan(500);
    await s.h.console.sites.create({ marketplace: 'shop', site: { kind: 'showroom', name: 'Second showroom', line1: 'Gatan 2', postal_code: '11111', city: 'Göteborg', country: 'SE', buyer_pickup: true } });
    expect(await seenByBoth(urls[2]!)).toBeLessThan(500);
    // term kinds' names are settings (hm_key_changed): a listing page shows them
    await s.h.console.marketplace.update({ marketplace: 'shop', settings: { term_kinds: [{ key: 'brand', names: { en: 'Maker', sv: 'Märke' } }, { key: 'color', names: { en: 'Colour', sv: 'Färg' } }] } });
    expect(await seenByBoth(urls[3]!)).toBeLessThan(500);
    for (const url of urls) expect((await call(s.a, 'GET', url)).body).toBe((await call(s.plain, 'GET', url)).body);
  });

  test('straight in SQL: a committed change is heard by both (the NOTIFY path alone); a rolled-back one changes nothing and drops nothing', async () => {
    const url = `/v1/listings/${L.lamp}`;
    const kept = await Promise.all([s.a, s.b].map((app) => call(app, 'GET', url)));
    const client = new pg.Client({ connectionString: s.h.databaseUrl });
    await client.connect();
    try {
      await client.query('begin');
      await client.query(`update listings set title = 'Rolled back' where id = $1`, [L.lamp]);
      await client.query('rollback');
      await new Promise((r) => setTimeout(r, 100)); // time for a notification, were one sent
      expect(await statementsDuring(() => Promise.all([s.a, s.b].map((app) => call(app, 'GET', url))))).toBe(0);
      for (const [i, app] of [s.a, s.b].entries()) expect((await call(app, 'GET', url)).body).toBe(kept[i]!.body);
      await client.query(`update listings set title = 'Brass lamp' where id = $1`, [L.lamp]);
      expect(await seenByBoth(url)).toBeLessThan(500);
      expect((await call(s.b, 'GET', url)).json().title).toBe('Brass lamp');
    } finally {
      await client.end();
    }
  });

  test('an answer read before a change commits is not kept past it (the change heard while the read ran)', async () => {
    const url = `/v1/listings/${L.ecole}`; // no currency: the listing is its first statement
    // (only the listing's own statement is held: the key may be looked up again first, its cache lasting a second)
    const [read] = await changedWhileHeld(/from listings/, () => Promise.all([call(s.a, 'GET', url)]), `update listings set title = 'School chair, stackable' where id = $1`, [L.ecole]);
    expect(read!.json().title).toBe('School chair'); // read before the change
    const next = await call(s.a, 'GET', url);
    expect(next.json().title).toBe('School chair, stackable');
    expect(next.body).toBe((await call(s.plain, 'GET', url)).body);
  });
});

describe('without the read cache', () => {
  test('API_READ_CACHE=false: the same answers, every read sent to the database', async () => {
    const off = await buildApp({ orm: s.h.orm, mode: 'test', ports: s.h.ports, apiUrl: 'http://localhost:4000', apiKeyCacheMs: 1000, keyChangesUrl: s.h.databaseUrl, readCache: false });
    try {
      const url = `/v1/listings?category=${s.m.category.chairs}`;
      const first = await call(off, 'GET', url);
      expect(await statementsDuring(() => call(off, 'GET', url))).toBeGreaterThan(0);
      expect(first.body).toBe((await call(s.a, 'GET', url)).body);
      expect(first.headers.etag).toBe((await call(s.a, 'GET', url)).headers.etag);
    } finally {
      await off.close();
    }
  });
});
