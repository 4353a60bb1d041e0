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
  text: ['a\u0000b', 'a\udfffb', 'x'.repeat(5000), 7],
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
  test('GET /v1/catalog-terms', () => expectAllRefused('/v1/catalog-terms?kind=brand', ['text', 'uuid']));

  test('a cursor of another sort or query is refused, saying so', async () => {
    const newest = await realCursor('/v1/listings?sort=newest');
    const res = await get(`/v1/listings?limit=1&sort=price_desc&cursor=${encodeURIComponent(newest)}`);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual([{ location: 'query.cursor', message: 'Not a cursor of this query; pass back next_cursor from the previous page of the same query.', value: newest }]);
    const mine = await realCursor('/v1/me/listings');
    expect((await get(`/v1/me/favorites?limit=1&cursor=${encodeURIComponent(mine)}`)).json().errors[0].location).toBe('query.cursor');
  });
});
