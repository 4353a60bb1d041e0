import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeCatalog, signUp, startHarness, type Harness } from './harness.js';

/**
 * Conditional reads: every GET answers a strong ETag and honours If-None-Match with 304; public
 * reads may sit in a CDN for a few seconds, personal ones never. `GET /v1/marketplace` is answered
 * from the key's marketplace alone: no entity manager, no transaction, no statement.
 */
let h: Harness;
let m: Awaited<ReturnType<typeof makeCatalog>>;
let session: string;
const PUBLIC = 'public, max-age=5, stale-while-revalidate=60';
const PRIVATE = 'private, no-store';

beforeAll(async () => {
  h = await startHarness();
  m = await makeCatalog(h, 'shop');
  session = (await signUp(h, m.secret, { email: 'ada@example.com', password: 'correct-horse' })).token;
});
afterAll(() => h.close());

const get = (url: string, opts: { key?: string; session?: string; tag?: string } = {}) =>
  h.request({ method: 'GET', url, key: opts.key ?? m.publishable, ...(opts.session ? { session: opts.session } : {}), headers: opts.tag ? { 'if-none-match': opts.tag } : {} });

describe('every GET: a strong ETag, If-None-Match → 304', () => {
  test.each(['/v1/marketplace', '/v1/categories?locale=sv', '/v1/catalog-terms?kind=brand', '/v1/locations', '/v1/listings?limit=5'])('%s: public, tagged, 304 with the tag, 200 with another', async (url) => {
    const full = await get(url);
    expect(full.statusCode).toBe(200);
    expect(full.headers.etag).toMatch(/^"[^"]+"$/);
    expect(full.headers['cache-control']).toBe(PUBLIC);
    expect(full.headers.vary).toBe('Authorization');
    const again = await get(url, { tag: full.headers.etag as string });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(full.headers.etag);
    expect(again.headers['cache-control']).toBe(PUBLIC);
    const other = await get(url, { tag: '"not-this-one"' });
    expect(other.statusCode).toBe(200);
    expect(other.body).toBe(full.body);
  });

  test('the same answer to another marketplace key is not the same tag (a shared cache varies on Authorization too)', async () => {
    const other = await makeCatalog(h, 'other');
    const mine = (await get('/v1/categories')).headers.etag as string;
    const theirs = await get('/v1/categories', { key: other.publishable, tag: mine });
    expect(theirs.statusCode).toBe(200); // other ids
    const market = (await get('/v1/marketplace')).headers.etag as string;
    expect((await get('/v1/marketplace', { key: other.publishable, tag: market })).statusCode).toBe(200);
  });

  test('personal reads are tagged too but private, no-store: /v1/me, a public read with a session, a secret-only read', async () => {
    for (const [url, key, s] of [
      ['/v1/me', m.secret, session],
      ['/v1/me/favorites', m.secret, session],
      ['/v1/listings?limit=5', m.secret, session],
    ] as const) {
      const full = await get(url, { key, session: s });
      expect(full.statusCode, url).toBe(200);
      expect(full.headers['cache-control'], url).toBe(PRIVATE);
      const again = await get(url, { key, session: s, tag: full.headers.etag as string });
      expect(again.statusCode, url).toBe(304);
      expect(again.headers['cache-control'], url).toBe(PRIVATE);
    }
  });

  test('a change is a new tag at once: the marketplace settings and the categories, seen by the next request', async () => {
    const market = await get('/v1/marketplace');
    const cats = await get('/v1/categories');
    await h.console.marketplace.update({ marketplace: 'shop', settings: { term_kinds: [{ key: 'brand', names: { en: 'Maker', sv: 'Märke' } }] } });
    const marketAfter = await get('/v1/marketplace', { tag: market.headers.etag as string });
    expect(marketAfter.statusCode).toBe(200);
    expect(marketAfter.json().term_kinds).toEqual([{ key: 'brand', names: { en: 'Maker', sv: 'Märke' } }]);
    expect(marketAfter.headers.etag).not.toBe(market.headers.etag);
    await h.console.categories.import({ marketplace: 'shop', items: [{ slug: 'lamps', names: { en: 'Lamps' }, parent: 'lighting', position: 1 }] });
    const catsAfter = await get('/v1/categories', { tag: cats.headers.etag as string });
    expect(catsAfter.statusCode).toBe(200);
    expect(catsAfter.json().items.map((c: { slug: string }) => c.slug)).toContain('lamps');
    // and back to 304 with the new tags
    expect((await get('/v1/marketplace', { tag: marketAfter.headers.etag as string })).statusCode).toBe(304);
    expect((await get('/v1/categories', { tag: catsAfter.headers.etag as string })).statusCode).toBe(304);
  });

  test('errors are never tagged nor publicly cacheable', async () => {
    const missing = await get('/v1/listings/0190c0c0-0000-7000-8000-000000000000', { tag: '*' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers.etag).toBeUndefined();
    expect(missing.headers['cache-control']).toBeUndefined();
    const bad = await get('/v1/listings?limit=500', { tag: '*' });
    expect(bad.statusCode).toBe(422);
    expect(bad.headers.etag).toBeUndefined();
  });

  test('the typed transport (/trpc) and the OpenAPI document answer 304 too', async () => {
    const trpc = await h.app.inject({ method: 'GET', url: '/trpc/categories.list?input=%7B%7D', headers: { authorization: `Bearer ${m.secret}` } });
    expect(trpc.statusCode).toBe(200);
    expect(trpc.headers['cache-control']).toBe(PRIVATE);
    const trpcAgain = await h.app.inject({ method: 'GET', url: '/trpc/categories.list?input=%7B%7D', headers: { authorization: `Bearer ${m.secret}`, 'if-none-match': trpc.headers.etag as string } });
    expect(trpcAgain.statusCode).toBe(304);
    expect(trpcAgain.body).toBe('');
    const doc = await h.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    const docAgain = await h.app.inject({ method: 'GET', url: '/v1/openapi.json', headers: { 'if-none-match': doc.headers.etag as string } });
    expect(docAgain.statusCode).toBe(304);
    // the document says so for every GET operation
    const paths = doc.json().paths as Record<string, Record<string, { parameters?: { $ref?: string }[]; responses: Record<string, { headers?: Record<string, unknown> }> }>>;
    for (const [path, item] of Object.entries(paths)) {
      if (!item.get || path.startsWith('/images') || path.startsWith('/media')) continue;
      expect(item.get.responses['304'], path).toBeDefined();
      expect(item.get.responses['200']!.headers!.ETag, path).toBeDefined();
      expect(item.get.parameters?.some((p) => p.$ref === '#/components/parameters/IfNoneMatch'), path).toBe(true);
    }
  });
});

describe('GET /v1/marketplace touches no table', () => {
  test('with the key cached: no statement, no entity manager forked, and a 304 before the procedure', async () => {
    const cached = await startHarness({ app: { apiKeyCacheMs: 1000 } });
    try {
      const c = await makeCatalog(cached, 'cached');
      const req = (tag?: string) => cached.request({ method: 'GET', url: '/v1/marketplace', key: c.publishable, headers: tag ? { 'if-none-match': tag } : {} });
      const first = await req(); // the key lookup
      const conn = cached.orm.em.getConnection();
      const connProto = Object.getPrototypeOf(conn) as { execute: (...a: unknown[]) => unknown };
      const emProto = Object.getPrototypeOf(cached.orm.em) as { fork: (...a: unknown[]) => unknown };
      const [execute, fork] = [connProto.execute, emProto.fork];
      let statements = 0;
      let forks = 0;
      connProto.execute = function (this: unknown, ...a: unknown[]) {
        statements++;
        return execute.apply(this, a);
      };
      emProto.fork = function (this: unknown, ...a: unknown[]) {
        forks++;
        return fork.apply(this, a);
      };
      try {
        const full = await req();
        expect(full.statusCode).toBe(200);
        expect(full.body).toBe(first.body);
        expect((await req(full.headers.etag as string)).statusCode).toBe(304);
        expect({ statements, forks }).toEqual({ statements: 0, forks: 0 });
        // a read that does touch tables, for contrast: the same counters see it
        await cached.request({ method: 'GET', url: '/v1/categories', key: c.publishable });
        expect(statements).toBeGreaterThan(0);
        expect(forks).toBe(1);
      } finally {
        connProto.execute = execute;
        emProto.fork = fork;
      }
    } finally {
      await cached.close();
    }
  });
});
