import { afterAll, beforeAll, expect, test } from 'vitest';
import { makeCatalog, startHarness, type Harness } from './harness.js';

let h: Harness;
let a: string;
let b: string;
beforeAll(async () => {
  h = await startHarness();
  a = (await makeCatalog(h, 'alpha')).secret;
  b = (await makeCatalog(h, 'beta')).secret;
  await h.console.terms.import({ marketplace: 'beta', items: [{ kind: 'brand', slug: 'only-in-beta', names: { en: 'Only In Beta' }, descriptions: {} }] });
  await h.console.categories.import({ marketplace: 'beta', items: [{ slug: 'only-in-beta', names: { en: 'Beta only' }, position: 9 }] });
});
afterAll(() => h.close());

test("another marketplace's term answers 404 like a missing one", async () => {
  expect((await h.request({ method: 'GET', url: '/v1/catalog-terms/brand/only-in-beta', key: b })).statusCode).toBe(200);
  const res = await h.request({ method: 'GET', url: '/v1/catalog-terms/brand/only-in-beta', key: a });
  const missing = await h.request({ method: 'GET', url: '/v1/catalog-terms/brand/never-existed', key: a });
  expect(res.statusCode).toBe(404);
  expect({ ...res.json(), detail: '' }).toEqual({ ...missing.json(), detail: '' });
});

test('lists show only the key’s marketplace', async () => {
  const terms = (await h.request({ method: 'GET', url: '/v1/catalog-terms?kind=brand&limit=200', key: a })).json().items;
  expect(terms.map((t: { slug: string }) => t.slug)).not.toContain('only-in-beta');
  expect(terms).toHaveLength(5);
  const cats = (await h.request({ method: 'GET', url: '/v1/categories', key: a })).json().items;
  expect(cats.map((c: { slug: string }) => c.slug)).not.toContain('only-in-beta');
  const catsB = (await h.request({ method: 'GET', url: '/v1/categories', key: b })).json().items;
  expect(new Set(cats.map((c: { id: string }) => c.id)).isDisjointFrom(new Set(catsB.map((c: { id: string }) => c.id)))).toBe(true);
  const sitesA = (await h.request({ method: 'GET', url: '/v1/locations', key: a })).json().items;
  const sitesB = (await h.request({ method: 'GET', url: '/v1/locations', key: b })).json().items;
  expect(sitesA).toHaveLength(1);
  expect(sitesA[0].id).not.toBe(sitesB[0].id);
});

test('a cursor from one marketplace is refused by another', async () => {
  const { next_cursor } = (await h.request({ method: 'GET', url: '/v1/catalog-terms?kind=brand&limit=1', key: a })).json();
  expect((await h.request({ method: 'GET', url: `/v1/catalog-terms?kind=brand&limit=1&cursor=${next_cursor}`, key: a })).statusCode).toBe(200);
  const res = await h.request({ method: 'GET', url: `/v1/catalog-terms?kind=brand&limit=1&cursor=${next_cursor}`, key: b });
  expect(res.statusCode).toBe(422);
  expect(res.json().errors[0].location).toBe('query.cursor');
});

test('the tenant filter is on by default: an unscoped query fails loudly instead of reading every marketplace', async () => {
  const { CategorySchema } = await import('@hm/db/entities');
  await expect(h.orm.em.fork().find(CategorySchema, {})).rejects.toThrow(/tenant/);
});
