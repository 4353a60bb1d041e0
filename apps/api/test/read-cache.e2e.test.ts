import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { createOrm, type MikroORM } from '@hm/db/orm';
import { buildApp } from '../src/app.js';
import { makeSellingMarketplace, putOnSale, signUp, startHarness, type Harness } from './harness.js';

/**
 * The public read cache (apps/api/src/http/read-cache.ts): public reads without a session are kept
 * per API process and answered — 200 or 304 — without the procedure, until a change to what they
 * read commits (NOTIFY `hm_reads_changed` / `hm_key_changed`). Every kept answer is checked against
 * a process that keeps nothing (same body, same ETag), across changes made through either of two API
 * processes and straight in SQL, a rolled-back change, languages, currencies, key kinds and days; a
 * favourite (a change to one listing alone) drops only the answers showing that listing and the
 * popular sorts, in both processes.
 */
let h: Harness;
let m: Awaited<ReturnType<typeof makeSellingMarketplace>>;
let alice: string;
let bob: string;
const L: Record<string, string> = {};
/** A: the harness's app; B: a second process (its own pool, its own listener); plain: keeps nothing */
let orm2: MikroORM;
let a: FastifyInstance;
let b: FastifyInstance;
let plain: FastifyInstance;

type Method = 'GET' | 'PUT' | 'POST' | 'PATCH' | 'DELETE';
const call = (app: FastifyInstance, method: Method, url: string, opts: { key?: string; session?: string; tag?: string; payload?: object } = {}) =>
  app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${opts.key ?? m.publishable}`, ...(opts.session ? { 'x-user-session': opts.session } : {}), ...(opts.tag ? { 'if-none-match': opts.tag } : {}) },
    ...(opts.payload ? { payload: opts.payload } : {}),
  });

/** Statements sent to Postgres by any pool of this test process while `fn` runs (every app's connection shares the prototype). */
async function statementsDuring(fn: () => Promise<unknown>): Promise<number> {
  return (await statementTexts(fn)).length;
}

async function statementTexts(fn: () => Promise<unknown>): Promise<string[]> {
  const proto = Object.getPrototypeOf(h.orm.em.getConnection()) as { execute: (...x: unknown[]) => unknown };
  const execute = proto.execute;
  const sent: string[] = [];
  proto.execute = function (this: unknown, ...x: unknown[]) {
    sent.push(String(x[0]));
    return execute.apply(this, x);
  };
  try {
    await fn();
  } finally {
    proto.execute = execute;
  }
  return sent;
}

const onSale = (session: string, content: Record<string, unknown>) => putOnSale(h, m.secret, session, content);

beforeAll(async () => {
  h = await startHarness({ readCache: true });
  a = h.app;
  m = await makeSellingMarketplace(h, 'shop', { min_images: 0 });
  await h.console.rates.set({ marketplace: 'shop', date: '2026-11-21', base: 'EUR', rates: { SEK: 11.5 } });
  // tomorrow's rate, set ahead: the day's answers change at midnight without a change committing then
  await h.console.rates.set({ marketplace: 'shop', date: '2026-11-23', base: 'EUR', rates: { SEK: 10 } });
  const al = await signUp(h, m.secret, { email: 'alice@example.com', password: 'alice password', display_name: 'Alice Antiques' });
  alice = al.token;
  bob = (await signUp(h, m.secret, { email: 'bob@example.com' })).token;
  L.cafe = await onSale(alice, { title: 'Café table', description: 'Round, oak.', category_id: m.category.tables, price: { amount: 150000, currency: 'SEK' } });
  L.ecole = await onSale(alice, { title: 'School chair', description: 'Stackable.', terms: { brand: m.brand.ecole, color: m.color.red }, category_id: m.category.chairs, price: { amount: 10000, currency: 'EUR' } });
  L.lounge = await onSale(bob, { title: 'Lounge chair', description: 'Deep.', terms: { brand: m.brand.artek }, category_id: m.category.chairs, price: { amount: 120000, currency: 'SEK' } });
  L.lamp = await onSale(bob, { title: 'Ekström lamp', description: 'Brass.', terms: { brand: m.brand.ekstrom }, category_id: m.category.lighting, price: { amount: 5000, currency: 'EUR' } });
  orm2 = await createOrm(h.databaseUrl, { poolMax: 2 });
  b = await buildApp({ orm: orm2, mode: 'test', ports: h.ports, apiUrl: 'http://localhost:4000', apiKeyCacheMs: 1000, keyChangesUrl: h.databaseUrl });
  plain = await buildApp({ orm: h.orm, mode: 'test', ports: h.ports, apiUrl: 'http://localhost:4000' });
});
afterAll(async () => {
  await Promise.all([b?.close(), plain?.close()]);
  await orm2?.close(true);
  await h.close();
});

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
  `/v1/listings?category=${m.category.chairs}&term=${m.brand.artek}`,
  `/v1/listings/${L.ecole}`,
  `/v1/listings/${L.ecole}?currency=SEK`,
  `/v1/listings/${L.lamp}?currency=EUR`,
];

/** Each URL through A and B (twice: the second from what they kept) equals the uncached process's answer: body, tag and caching headers. */
async function expectSameAsUncached(key: string) {
  for (const url of urls()) {
    const want = await call(plain, 'GET', url, { key });
    expect(want.statusCode, `${url}: ${want.body}`).toBe(200);
    for (const app of [a, b]) {
      for (let i = 0; i < 2; i++) {
        const got = await call(app, 'GET', url, { key });
        const seen = (r: typeof got) => ({ url, status: r.statusCode, body: r.body, tag: r.headers.etag, cacheControl: r.headers['cache-control'], vary: r.headers.vary, type: r.headers['content-type'] });
        expect(seen(got)).toEqual(seen(want));
      }
    }
  }
}

/**
 * Runs `requests` with every statement matching `held` held once it was answered; meanwhile `sql`
 * commits on a connection of its own and is heard; then lets them finish. Their answers.
 */
async function changedWhileHeld<T>(held: RegExp, requests: () => Promise<T>, sql: string, params: unknown[]): Promise<T> {
  const proto = Object.getPrototypeOf(h.orm.em.getConnection()) as { execute: (...x: unknown[]) => Promise<unknown> };
  const execute = proto.execute;
  let release = () => {};
  const hold = new Promise<void>((r) => (release = r));
  proto.execute = async function (this: unknown, ...x: unknown[]) {
    const out = await execute.apply(this, x);
    if (held.test(String(x[0]))) await hold;
    return out;
  };
  try {
    const running = requests();
    await new Promise((r) => setTimeout(r, 50));
    const client = new pg.Client({ connectionString: h.databaseUrl });
    await client.connect();
    await client.query(sql, params);
    await client.end();
    await new Promise((r) => setTimeout(r, 100)); // heard
    release();
    return await running;
  } finally {
    release();
    proto.execute = execute;
  }
}

/** Polls A and B (every 5 ms) until `url` answers what the uncached process answers; ms taken, or fails after 1 s. */
async function seenByBoth(url: string, key = m.publishable): Promise<number> {
  const from = performance.now();
  for (;;) {
    const want = await call(plain, 'GET', url, { key });
    const got = await Promise.all([a, b].map((app) => call(app, 'GET', url, { key })));
    if (got.every((g) => g.statusCode === want.statusCode && g.body === want.body && g.headers.etag === want.headers.etag)) return performance.now() - from;
    if (performance.now() - from > 1000) throw new Error(`${url} still stale after 1 s: ${got.map((g) => g.body.slice(0, 80)).join(' | ')}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('kept answers are the uncached answers', () => {
  test('every public read, by both key kinds, in both processes: the same body and ETag as a process that keeps nothing', async () => {
    await expectSameAsUncached(m.publishable);
    await expectSameAsUncached(m.secret);
  });

  test('a kept read sends no statement, its 304 neither; the query in another order is the same kept answer', async () => {
    const url = `/v1/listings?limit=5&currency=EUR&category=${m.category.chairs}`;
    const first = await call(a, 'GET', url);
    let again: Awaited<ReturnType<typeof call>> | undefined;
    let notModified: Awaited<ReturnType<typeof call>> | undefined;
    let reordered: Awaited<ReturnType<typeof call>> | undefined;
    const statements = await statementsDuring(async () => {
      again = await call(a, 'GET', url);
      notModified = await call(a, 'GET', url, { tag: first.headers.etag as string });
      reordered = await call(a, 'GET', `/v1/listings?category=${m.category.chairs}&currency=EUR&limit=5`);
    });
    expect(statements).toBe(0);
    expect(again!.body).toBe(first.body);
    expect(notModified!.statusCode).toBe(304);
    expect(notModified!.body).toBe('');
    expect(notModified!.headers.etag).toBe(first.headers.etag);
    expect(notModified!.headers['cache-control']).toBe('public, max-age=5, stale-while-revalidate=60');
    expect(reordered!.headers.etag).toBe(first.headers.etag);
    // another language, currency or key kind is another answer, read once
    for (const other of [url.replace('EUR', 'SEK'), `${url}&locale=sv`]) expect(await statementsDuring(() => call(a, 'GET', other))).toBeGreaterThan(0);
    expect(await statementsDuring(() => call(a, 'GET', url, { key: m.secret }))).toBeGreaterThan(0);
  });

  test('a read with X-User-Session is never kept (personal: favourites), nor is a refusal or a 404', async () => {
    await call(a, 'PUT', `/v1/me/favorites/${L.lamp}`, { key: m.secret, session: alice });
    const url = `/v1/listings/${L.lamp}`;
    for (let i = 0; i < 2; i++) {
      let res: Awaited<ReturnType<typeof call>> | undefined;
      expect(await statementsDuring(async () => (res = await call(a, 'GET', url, { key: m.secret, session: alice })))).toBeGreaterThan(0);
      expect(res!.json().favorited).toBe(true);
      expect(res!.headers['cache-control']).toBe('private, no-store');
    }
    // kept without the session, never handed to it
    await call(a, 'GET', url, { key: m.secret });
    expect((await call(a, 'GET', url, { key: m.secret, session: bob })).json().favorited).toBe(false);
    for (let i = 0; i < 2; i++) expect(await statementsDuring(() => call(a, 'GET', '/v1/listings/0190c0c0-0000-7000-8000-000000000000'))).toBeGreaterThan(0);
    for (let i = 0; i < 2; i++) expect((await call(a, 'GET', '/v1/listings?limit=500')).statusCode).toBe(422);
  });

  test("the day's rates: a kept currency answer is not served past midnight (tomorrow's rate set ahead applies then)", async () => {
    const url = `/v1/listings/${L.ecole}?currency=SEK`;
    const today = (await call(a, 'GET', url)).json().display_price;
    expect(today).toEqual({ amount: 115000, currency: 'SEK' });
    const hours = (24 - h.clock.now().getUTCHours()) * 3600_000;
    h.clock.advance(hours);
    const tomorrow = await call(a, 'GET', url);
    expect(tomorrow.json().display_price).toEqual({ amount: 100000, currency: 'SEK' });
    expect(tomorrow.body).toBe((await call(plain, 'GET', url)).body);
  });
});

describe('a change commits → the next read in every process is the new answer', () => {
  test('through process A: a listing closed (search, its page, a category) and a display name changed, seen by A and B', async () => {
    const search = `/v1/listings?category=${m.category.chairs}`;
    const page = `/v1/listings/${L.lounge}`;
    const seller = `/v1/listings/${L.cafe}`;
    for (const url of [search, page, seller]) for (const app of [a, b]) await call(app, 'GET', url); // kept
    const before = (await call(b, 'GET', search)).json().items.map((i: { id: string }) => i.id);
    expect(before).toContain(L.lounge);
    const closed = await call(a, 'POST', `/v1/me/listings/${L.lounge}/close`, { key: m.secret, session: bob, payload: {} });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(await seenByBoth(search)).toBeLessThan(500);
    expect((await call(b, 'GET', search)).json().items.map((i: { id: string }) => i.id)).not.toContain(L.lounge);
    expect(await seenByBoth(page)).toBeLessThan(500);
    expect((await call(b, 'GET', page)).statusCode).toBe(404);
    const renamed = await call(a, 'PATCH', '/v1/me', { key: m.secret, session: alice, payload: { display_name: 'Alice & Co' } });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(await seenByBoth(seller)).toBeLessThan(500);
    expect((await call(b, 'GET', seller)).json().seller.display_name).toBe('Alice & Co');
  });

  test('through the console: categories, terms, a site and marketplace settings', async () => {
    const urls = ['/v1/categories?locale=sv', '/v1/catalog-terms?kind=brand', '/v1/locations', `/v1/listings/${L.ecole}`];
    for (const url of urls) for (const app of [a, b]) await call(app, 'GET', url);
    await h.console.categories.import({ marketplace: 'shop', items: [{ slug: 'lamps', names: { en: 'Lamps', sv: 'Lampor' }, parent: 'lighting', position: 1 }] });
    expect(await seenByBoth(urls[0]!)).toBeLessThan(500);
    await h.console.terms.import({ marketplace: 'shop', items: [{ kind: 'brand', slug: 'hay', names: { en: 'Hay' }, descriptions: {} }] });
    expect(await seenByBoth(urls[1]!)).toBeLessThan(500);
    await h.console.sites.create({ marketplace: 'shop', site: { kind: 'showroom', name: 'Second showroom', line1: 'Gatan 2', postal_code: '11111', city: 'Göteborg', country: 'SE', buyer_pickup: true } });
    expect(await seenByBoth(urls[2]!)).toBeLessThan(500);
    // term kinds' names are settings (hm_key_changed): a listing page shows them
    await h.console.marketplace.update({ marketplace: 'shop', settings: { term_kinds: [{ key: 'brand', names: { en: 'Maker', sv: 'Märke' } }, { key: 'color', names: { en: 'Colour', sv: 'Färg' } }] } });
    expect(await seenByBoth(urls[3]!)).toBeLessThan(500);
    for (const url of urls) expect((await call(a, 'GET', url)).body).toBe((await call(plain, 'GET', url)).body);
  });

  test('straight in SQL: a committed change is heard by both (the NOTIFY path alone); a rolled-back one changes nothing and drops nothing', async () => {
    const url = `/v1/listings/${L.lamp}`;
    const kept = await Promise.all([a, b].map((app) => call(app, 'GET', url)));
    const client = new pg.Client({ connectionString: h.databaseUrl });
    await client.connect();
    try {
      await client.query('begin');
      await client.query(`update listings set title = 'Rolled back' where id = $1`, [L.lamp]);
      await client.query('rollback');
      await new Promise((r) => setTimeout(r, 100)); // time for a notification, were one sent
      expect(await statementsDuring(() => Promise.all([a, b].map((app) => call(app, 'GET', url))))).toBe(0);
      for (const [i, app] of [a, b].entries()) expect((await call(app, 'GET', url)).body).toBe(kept[i]!.body);
      await client.query(`update listings set title = 'Brass lamp' where id = $1`, [L.lamp]);
      expect(await seenByBoth(url)).toBeLessThan(500);
      expect((await call(b, 'GET', url)).json().title).toBe('Brass lamp');
    } finally {
      await client.end();
    }
  });

  test('an answer read before a change commits is not kept past it (the change heard while the read ran)', async () => {
    const url = `/v1/listings/${L.ecole}`; // no currency: the listing is its first statement
    // (only the listing's own statement is held: the key may be looked up again first, its cache lasting a second)
    const [read] = await changedWhileHeld(/from listings/, () => Promise.all([call(a, 'GET', url)]), `update listings set title = 'School chair, stackable' where id = $1`, [L.ecole]);
    expect(read!.json().title).toBe('School chair'); // read before the change
    const next = await call(a, 'GET', url);
    expect(next.json().title).toBe('School chair, stackable');
    expect(next.body).toBe((await call(plain, 'GET', url)).body);
  });
});

describe('a favourite (a change to one listing alone) drops only the answers that show that listing, and the popular sorts', () => {
  const ids = (r: { json(): { items: { id: string }[] } }) => r.json().items.map((i) => i.id);
  /** Sent by neither A nor B: both answer `urls` from what they kept (the key looked up again first, unmeasured, should its second have passed). */
  async function keptByBoth(urls: string[]) {
    for (const app of [a, b]) await call(app, 'GET', '/v1/categories');
    const n = await statementsDuring(() => Promise.all(urls.flatMap((url) => [a, b].map((app) => call(app, 'GET', url)))));
    expect(n, urls.join(' ')).toBe(0);
  }

  test('through B, straight in SQL, rolled back: the listing page, page 2 of a search and popular show the new count; page 1 and the other listings stay kept', async () => {
    // newest first, two a page: page 2 holds the café table
    const first = await call(plain, 'GET', '/v1/listings?limit=2');
    const page1 = '/v1/listings?limit=2';
    const page2 = `/v1/listings?limit=2&cursor=${encodeURIComponent(first.json().next_cursor)}`;
    expect(ids(await call(plain, 'GET', page2))).toContain(L.cafe);
    expect(ids(first)).not.toContain(L.cafe);
    const popular = '/v1/listings?sort=popular&limit=1';
    const cafe = `/v1/listings/${L.cafe}`;
    const others = [page1, `/v1/listings/${L.ecole}`, `/v1/listings/${L.lamp}?currency=EUR`, '/v1/listings?q=chair&sort=price_asc', '/v1/categories?locale=sv'];
    const byPrice = '/v1/listings?sort=price_asc&limit=5'; // the café table among them
    const all = [page1, page2, popular, cafe, `${cafe}?currency=EUR`, byPrice, ...others];
    await expectSameFor(all);
    const topBefore = ids(await call(a, 'GET', popular));
    expect(topBefore).not.toEqual([L.cafe]);

    // saved by two users through B: the café table moves to the top of the popular sort without being on its kept page
    for (const session of [alice, bob]) expect((await favourite(b, 'PUT', L.cafe, session)).statusCode).toBe(204);
    for (const url of [cafe, page2, popular]) expect(await seenByBoth(url)).toBeLessThan(500);
    expect((await call(a, 'GET', cafe)).json().favorite_count).toBe(2);
    expect(ids(await call(b, 'GET', popular))).toEqual([L.cafe]);
    await keptByBoth(others);
    await expectSameFor(all);

    // forgotten through A
    expect((await favourite(a, 'DELETE', L.cafe, bob)).statusCode).toBe(204);
    expect(await seenByBoth(`${cafe}?currency=EUR`)).toBeLessThan(500);
    expect((await call(b, 'GET', `${cafe}?currency=EUR`)).json().favorite_count).toBe(1);
    await keptByBoth(others);
    await expectSameFor(all);

    // straight in SQL: rolled back, nothing is dropped; committed, it is seen
    const client = new pg.Client({ connectionString: h.databaseUrl });
    await client.connect();
    try {
      await client.query('begin');
      await client.query(`update listings set favorite_count = favorite_count + 5 where id = $1`, [L.cafe]);
      await client.query('rollback');
      await new Promise((r) => setTimeout(r, 100)); // time for a notification, were one sent
      await keptByBoth([cafe, page2, popular, ...others]);
      await client.query(`update listings set favorite_count = favorite_count + 5 where id = $1`, [L.cafe]);
      expect(await seenByBoth(page2)).toBeLessThan(500);
      expect((await call(a, 'GET', page2)).json().items.find((i: { id: string }) => i.id === L.cafe).favorite_count).toBe(6);
      await keptByBoth(others);
      await expectSameFor(all);
      // a change to anything else of a listing is a change to every answer: the search by price shows it by its new price
      await client.query(`update listings set favorite_count = favorite_count - 5, price_amount = 90000 where id = $1`, [L.cafe]);
      expect(await seenByBoth(byPrice)).toBeLessThan(500);
      expect((await call(b, 'GET', page1)).body).toBe((await call(plain, 'GET', page1)).body);
      await expectSameFor(all);
    } finally {
      await client.end();
    }
  });

  test('a search read before a favourite on a listing it shows is heard is not kept; one that does not show it is', async () => {
    const shows = '/v1/listings?sort=newest&limit=10'; // the café table among them
    const without = `/v1/listings?category=${m.category.lighting}&sort=newest`; // the lamp only
    expect(ids(await call(plain, 'GET', shows))).toContain(L.cafe);
    expect(ids(await call(plain, 'GET', without))).toEqual([L.lamp]);
    const before = (await call(plain, 'GET', `/v1/listings/${L.cafe}`)).json().favorite_count;
    // A's reads of the listings' rows are held once read: the favourite commits (and is heard) while both searches run
    const [old] = await changedWhileHeld(/select \* from listings where .*id = any/, () => Promise.all([call(a, 'GET', shows), call(a, 'GET', without)]), `update listings set favorite_count = favorite_count + 1 where id = $1`, [L.cafe]);
    expect(old!.json().items.find((i: { id: string }) => i.id === L.cafe).favorite_count).toBe(before); // read before the change
    await call(a, 'GET', '/v1/categories');
    expect(await statementsDuring(() => call(a, 'GET', without))).toBe(0);
    expect(await statementsDuring(() => call(a, 'GET', shows))).toBeGreaterThan(0);
    const next = await call(a, 'GET', shows);
    expect(next.json().items.find((i: { id: string }) => i.id === L.cafe).favorite_count).toBe(before + 1);
    expect(next.body).toBe((await call(plain, 'GET', shows)).body);
  });
});

describe("a search's exact total is kept per process for its filters", () => {
  test('another sort or page of the same filters does not count again; a listing put on sale is counted in both processes', async () => {
    // (price sorts add a filter of their own: a priced listing)
    const words = '/v1/listings?q=chair&limit=1';
    const other = '/v1/listings?q=chair&sort=newest&limit=1';
    const counts = (sent: string[]) => sent.filter((q) => /select count\(\*\)/.test(q)).length;
    expect(counts(await statementTexts(() => call(a, 'GET', words)))).toBeGreaterThan(0);
    const sent = await statementTexts(() => call(a, 'GET', other));
    expect(sent.length).toBeGreaterThan(0); // its page is read
    expect(counts(sent)).toBe(0);
    await expectSameFor([words, other]);
    const before = (await call(plain, 'GET', other)).json().total;
    // a favourite counts nothing: the kept count stays
    await favourite(b, 'PUT', L.ecole, bob);
    expect(counts(await statementTexts(() => call(a, 'GET', `${other}&currency=EUR`)))).toBe(0);
    await onSale(bob, { title: 'Windsor chair', description: 'Spindles.', category_id: m.category.chairs, price: { amount: 30000, currency: 'SEK' } });
    for (const url of [words, other, `${other}&currency=EUR`]) expect(await seenByBoth(url)).toBeLessThan(500);
    expect((await call(b, 'GET', other)).json().total).toBe(before + 1);
    await expectSameFor([words, other, `${other}&currency=EUR`]);
  });
});

const favourite = (app: FastifyInstance, method: 'PUT' | 'DELETE', listing: string | undefined, session: string) => call(app, method, `/v1/me/favorites/${listing!}`, { key: m.secret, session });

/** Each URL through A and B, twice, equals the uncached process's answer (body and tag). */
async function expectSameFor(urls: string[]) {
  for (const url of urls) {
    const want = await call(plain, 'GET', url);
    expect(want.statusCode, `${url}: ${want.body}`).toBe(200);
    for (const app of [a, b]) for (let i = 0; i < 2; i++) {
      const got = await call(app, 'GET', url);
      expect({ url, body: got.body, tag: got.headers.etag }).toEqual({ url, body: want.body, tag: want.headers.etag });
    }
  }
}

describe('without the read cache', () => {
  test('API_READ_CACHE=false: the same answers, every read sent to the database', async () => {
    const off = await buildApp({ orm: h.orm, mode: 'test', ports: h.ports, apiUrl: 'http://localhost:4000', apiKeyCacheMs: 1000, keyChangesUrl: h.databaseUrl, readCache: false });
    try {
      const url = `/v1/listings?category=${m.category.chairs}`;
      const first = await call(off, 'GET', url);
      expect(await statementsDuring(() => call(off, 'GET', url))).toBeGreaterThan(0);
      expect(first.body).toBe((await call(a, 'GET', url)).body);
      expect(first.headers.etag).toBe((await call(a, 'GET', url)).headers.etag);
    } finally {
      await off.close();
    }
  });
});
