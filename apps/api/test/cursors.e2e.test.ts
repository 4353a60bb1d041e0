import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeSellingMarketplace, signUp, startHarness, type Harness } from './harness.js';

/**
 * Cursors come back from clients: a forged one (not base64, not JSON, the wrong key types, a
 * non-UUID id, a non-date or out-of-range key, NUL bytes, another query's) is a 422 problem at
 * `query.cursor` on every cursor-paged list, never a 500 from the database.
 */
let h: Harness;
let m: Awaited<ReturnType<typeof makeSellingMarketplace>>;
let session: string;

const get = (url: string) => h.request({ method: 'GET', url, key: m.secret, session });

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64url');
const decode = (cursor: string) => JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { q: string; k: unknown[] };
const forge = (q: unknown, k: unknown) => b64(JSON.stringify({ q, k }));

/** A real cursor: the first page's next_cursor (the list has more than one item). */
async function realCursor(url: string): Promise<string> {
  const res = await get(`${url}${url.includes('?') ? '&' : '?'}limit=1`);
  expect(res.statusCode, res.body).toBe(200);
  const cursor = res.json().next_cursor as string | undefined;
  expect(cursor, res.body).toBeTruthy();
  // the real one works: what follows is about forged ones only
  expect((await get(`${url}${url.includes('?') ? '&' : '?'}limit=1&cursor=${encodeURIComponent(cursor!)}`)).statusCode).toBe(200);
  return cursor!;
}

/** Bad values for a key of each column type the lists page on. */
const BAD_BY_TYPE: Record<string, unknown[]> = {
  timestamptz: ['yesterday', '2026-02-30T00:00:00.000Z', '+275760-09-13T00:00:00.000Z', '2026-11-22T10:00:00.000Z\u0000', 1700000000000, null],
  uuid: ["not-a-uuid' or '1'='1", '------------------------------------', 'a\u0000', 42],
  int: [2 ** 40, 1.5, '1', -(2 ** 40)],
  bigint: [2 ** 60, 'x', 1e300],
};

function forgeries(real: string, types: string[]): [string, string][] {
  const { q, k } = decode(real);
  const out: [string, string][] = [
    ['not base64', '%%%not base64%%%'],
    ['NUL byte', '\u0000'],
    ['base64 of garbage', b64('garbage{')],
    ['JSON null', b64('null')],
    ['JSON of another shape', b64(JSON.stringify({ hello: 'world' }))],
    ['key not an array', forge(q, 'key')],
    ['too few keys', forge(q, k.slice(1))],
    ['too many keys', forge(q, [...k, k[0]])],
    ['objects for keys', forge(q, k.map(() => ({})))],
    ['another query', forge(`${q}x`, k)],
  ];
  types.forEach((t, i) => {
    for (const bad of BAD_BY_TYPE[t]!) out.push([`key ${i} (${t}) = ${JSON.stringify(bad).slice(0, 40)}`, forge(q, k.map((v, j) => (j === i ? bad : v)))]);
  });
  return out;
}

async function expectAllRefused(url: string, types: string[]) {
  const real = await realCursor(url);
  for (const [name, cursor] of forgeries(real, types)) {
    const res = await get(`${url}${url.includes('?') ? '&' : '?'}limit=1&cursor=${encodeURIComponent(cursor)}`);
    expect(res.statusCode, `${name}: ${res.body}`).toBe(422);
    expect(res.headers['content-type'], name).toBe('application/problem+json');
    expect(res.json(), name).toMatchObject({ code: 'validation_failed', errors: [{ location: 'query.cursor', value: cursor }] });
  }
}

beforeAll(async () => {
  h = await startHarness();
  m = await makeSellingMarketplace(h, 'cursors', { min_images: 0 });
  session = (await signUp(h, m.secret, { email: 'seller@example.com' })).token;
  for (const [title, amount] of [['Oak chair', 1000], ['Oak table', 2000], ['Oak lamp', 3000]] as const) {
    h.clock.advance(1000);
    const created = await h.request({ method: 'POST', url: '/v1/me/listings', key: m.secret, session, payload: { title, location: { country: 'SE' }, delivery: { pickup: true }, price: { amount, currency: 'SEK' } } });
    const id = created.json().id as string;
    expect((await h.request({ method: 'POST', url: `/v1/me/listings/${id}/publish`, key: m.secret, session, payload: {} })).json().status).toBe('published');
    expect((await h.request({ method: 'PUT', url: `/v1/me/favorites/${id}`, key: m.secret, session })).statusCode).toBe(204);
  }
});
afterAll(() => h.close());

describe('forged cursors are 422 at query.cursor', () => {
  test('GET /v1/listings, newest', () => expectAllRefused('/v1/listings?sort=newest', ['timestamptz', 'uuid']));
  test('GET /v1/listings, relevance', () => expectAllRefused('/v1/listings?q=oak', ['int', 'timestamptz', 'uuid']));
  test('GET /v1/listings, price_asc', () => expectAllRefused('/v1/listings?sort=price_asc', ['bigint', 'uuid']));
  test('GET /v1/listings, popular', () => expectAllRefused('/v1/listings?sort=popular', ['int', 'uuid']));
  test('GET /v1/me/listings', () => expectAllRefused('/v1/me/listings', ['timestamptz', 'uuid']));
  test('GET /v1/me/favorites', () => expectAllRefused('/v1/me/favorites', ['timestamptz', 'uuid']));
  test('GET /v1/catalog-terms', () => expectAllRefused('/v1/catalog-terms?kind=brand', ['uuid']));

  test('a cursor of another sort or query is refused, saying so', async () => {
    const newest = await realCursor('/v1/listings?sort=newest');
    const res = await get(`/v1/listings?limit=1&sort=price_desc&cursor=${encodeURIComponent(newest)}`);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual([{ location: 'query.cursor', message: 'Not a cursor of this query; pass back next_cursor from the previous page of the same query.', value: newest }]);
    const mine = await realCursor('/v1/me/listings');
    expect((await get(`/v1/me/favorites?limit=1&cursor=${encodeURIComponent(mine)}`)).json().errors[0].location).toBe('query.cursor');
  });
});

/**
 * A cursor carries a fixed-size digest of its query and a fixed-size key, so it stays far below
 * `cursor`'s 500 characters whatever the query: the longest query the limits allow pages on.
 */
describe('cursors stay short whatever the query', () => {
  const MAX_CURSOR = 200;
  const pageOf = async (url: string) => {
    const res = await get(url);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { items: { id: string; name?: string; title?: string }[]; next_cursor?: string };
  };
  /** Every page of `url` with limit=1, following next_cursor: the ids in order, and the cursors. */
  async function walk(url: string, pages: number) {
    const ids: string[] = [];
    const cursors: string[] = [];
    for (let i = 0; i < pages; i++) {
      const page = await pageOf(`${url}&limit=1${cursors.length ? `&cursor=${encodeURIComponent(cursors.at(-1)!)}` : ''}`);
      ids.push(...page.items.map((x) => x.id));
      if (!page.next_cursor) return { ids, cursors, last: true };
      expect(page.next_cursor.length, `${url} page ${i + 1}`).toBeLessThanOrEqual(MAX_CURSOR);
      cursors.push(page.next_cursor);
    }
    return { ids, cursors, last: false };
  }

  test('GET /v1/listings: the longest q, 50 term ids, category, 50 longest attributes, prices, currency and seller page to the end with limit=1', async () => {
    // 50 catalogue terms (44 more brands, the catalogue's 5 and the colour red)
    await h.console.terms.import({
      marketplace: 'cursors',
      items: Array.from({ length: 44 }, (_, i) => ({ kind: 'brand', slug: `brand-${i}`, names: { en: `Brand ${i}` }, descriptions: {} })),
    });
    const brands = (await pageOf('/v1/catalog-terms?kind=brand&limit=200')).items.map((t) => t.id);
    expect(brands).toHaveLength(49);
    const terms = [...brands, m.color.red!];
    // 50 attributes of the longest key and value, one of them each listing's
    const key = 'k'.repeat(40);
    const values = Array.from({ length: 50 }, (_, i) => `${String(i).padStart(2, '0')} "quoted" \\ ${'v'.repeat(100)}`.slice(0, 100));
    const me = (await get('/v1/me')).json().id as string;
    const titles = ['Oak bench 1', 'Oak bench 2', 'Oak bench 3', 'Oak bench 4'];
    const made: string[] = [];
    for (const [i, title] of titles.entries()) {
      h.clock.advance(1000);
      const created = await h.request({
        method: 'POST',
        url: '/v1/me/listings',
        key: m.secret,
        session,
        payload: {
          title,
          location: { country: 'SE' },
          delivery: { pickup: true },
          price: { amount: 5000 + i, currency: 'SEK' },
          category_id: m.category.chairs,
          terms: { brand: brands[i * 10], color: m.color.red },
          attributes: { [key]: values[i * 7] },
        },
      });
      expect(created.statusCode, created.body).toBe(201);
      const id = created.json().id as string;
      expect((await h.request({ method: 'POST', url: `/v1/me/listings/${id}/publish`, key: m.secret, session, payload: {} })).json().status).toBe('published');
      made.push(id);
    }
    const q = 'oak '.repeat(50);
    expect(q).toHaveLength(200);
    const query = new URLSearchParams([
      ['q', q],
      ['category', m.category.furniture!],
      ['seller', me],
      ['min_price', '1'],
      ['max_price', String(Number.MAX_SAFE_INTEGER)],
      ['currency', 'SEK'],
      ...terms.map((t) => ['term', t]),
      ...values.map((v) => ['attr', `${key}:${v}`]),
    ] as [string, string][]).toString();
    expect(terms).toHaveLength(50);
    expect(values.every((v) => v.length === 100)).toBe(true);

    for (const sort of ['relevance', 'newest', 'price_desc', 'popular']) {
      const { ids, cursors, last } = await walk(`/v1/listings?${query}&sort=${sort}`, 5);
      expect(last, sort).toBe(true);
      expect(cursors, sort).toHaveLength(3); // pages 2, 3 and 4 were asked for with them
      expect(new Set(ids).size, sort).toBe(4);
      expect([...ids].sort(), sort).toEqual([...made].sort());
      if (sort !== 'popular') expect(ids, sort).toEqual([...made].reverse()); // newest (and dearest) first
    }

    // the same cursor with another query — one term fewer, another word, another sort — is refused
    const { cursors } = await walk(`/v1/listings?${query}`, 2);
    const other = new URLSearchParams(query);
    other.delete('term', terms.at(-1));
    for (const [name, url] of [
      ['one term fewer', `/v1/listings?${other.toString()}`],
      ['another word', `/v1/listings?${query.replace('q=oak', 'q=oat')}`],
      ['another sort', `/v1/listings?${query}&sort=newest`],
      ['another list', '/v1/me/favorites?currency=SEK'],
    ] as const) {
      const res = await get(`${url}&limit=1&cursor=${encodeURIComponent(cursors[1]!)}`);
      expect(res.statusCode, `${name}: ${res.body}`).toBe(422);
      expect(res.json().errors, name).toEqual([{ location: 'query.cursor', message: 'Not a cursor of this query; pass back next_cursor from the previous page of the same query.', value: cursors[1] }]);
    }
  }, 60_000);

  test('GET /v1/catalog-terms: names and q of 200 characters of three bytes each page to the end with limit=1', async () => {
    const name = '漢'.repeat(200);
    await h.console.terms.import({
      marketplace: 'cursors',
      items: Array.from({ length: 4 }, (_, i) => ({ kind: 'color', slug: `long-${i}`, names: { en: name, sv: name }, descriptions: {} })),
    });
    const url = `/v1/catalog-terms?kind=color&locale=sv&q=${encodeURIComponent(name)}`;
    const { ids, cursors, last } = await walk(url, 5);
    expect(last).toBe(true);
    expect(cursors).toHaveLength(3);
    expect(new Set(ids).size).toBe(4);
    const all = (await pageOf(`${url}&limit=200`)).items;
    expect(ids).toEqual(all.map((t) => t.id));
    expect(all.every((t) => t.name === name)).toBe(true);
    // another q, kind or locale: refused
    for (const other of [`/v1/catalog-terms?kind=color&locale=sv&q=${encodeURIComponent(name.slice(1))}`, `/v1/catalog-terms?kind=brand&locale=sv&q=${encodeURIComponent(name)}`, `/v1/catalog-terms?kind=color&locale=en&q=${encodeURIComponent(name)}`]) {
      const res = await get(`${other}&limit=1&cursor=${encodeURIComponent(cursors[0]!)}`);
      expect(res.statusCode, other).toBe(422);
      expect(res.json().errors[0]).toMatchObject({ location: 'query.cursor', value: cursors[0] });
    }
  });
});
