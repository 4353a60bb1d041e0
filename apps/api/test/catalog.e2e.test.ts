import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeCatalog, startHarness, type Harness } from './harness.js';

let h: Harness;
let key: string;
beforeAll(async () => {
  h = await startHarness();
  ({ secret: key } = await makeCatalog(h));
});
afterAll(() => h.close());

const get = (url: string) => h.request({ method: 'GET', url, key });

describe('GET /v1/marketplace', () => {
  test('returns the PublicBody of the key’s marketplace, fields in spec order', async () => {
    const res = await get('/v1/marketplace');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body)).toEqual(['id', 'name', 'slug', 'currencies', 'locales', 'term_kinds', 'listings', 'shipping']);
    expect(body).toMatchObject({ slug: 'shop', currencies: ['SEK', 'EUR'], locales: ['en', 'sv'] });
    expect(body.term_kinds).toEqual([
      { key: 'brand', names: { en: 'Brand', sv: 'Märke' } },
      { key: 'color', names: { en: 'Colour', sv: 'Färg' } },
    ]);
    expect(body.listings).toEqual({ min_images: 1, require_approval: false, require_category: false, required_terms: [], valuations: false });
    expect(body).not.toHaveProperty('commission_percent');
    expect(body).not.toHaveProperty('storefront_url');
  });
});

describe('GET /v1/categories', () => {
  test('depth first with parent ids, names in the default language', async () => {
    const res = await get('/v1/categories');
    expect(res.statusCode).toBe(200);
    const items = res.json().items as { id: string; name: string; slug: string; parent_id?: string; position: number }[];
    expect(items.map((c) => c.slug)).toEqual(['furniture', 'chairs', 'tables', 'lighting']);
    const furniture = items[0]!;
    expect(furniture).toEqual({ id: furniture.id, name: 'Furniture', slug: 'furniture', position: 1 });
    expect(items[1]).toMatchObject({ name: 'Chairs', parent_id: furniture.id });
  });

  test('locale picks names and falls back to the default language per name', async () => {
    const sv = (await get('/v1/categories?locale=sv')).json().items.map((c: { name: string }) => c.name);
    expect(sv).toEqual(['Möbler', 'Stolar', 'Tables', 'Belysning']);
    const region = (await get('/v1/categories?locale=sv-SE')).json().items.map((c: { name: string }) => c.name);
    expect(region).toEqual(sv);
    const unknown = (await get('/v1/categories?locale=fr')).json().items.map((c: { name: string }) => c.name);
    expect(unknown).toEqual(['Furniture', 'Chairs', 'Tables', 'Lighting']);
  });

  test('unknown query parameters are refused, not ignored', async () => {
    const res = await get('/v1/categories?lang=sv');
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual([{ location: 'query.lang', message: 'Unknown field.', value: 'sv' }]);
  });
});

describe('GET /v1/catalog-terms', () => {
  const names = async (qs: string) => (await get(`/v1/catalog-terms?${qs}`)).json().items.map((t: { name: string }) => t.name);

  test('terms of one kind ordered by name, accents folded', async () => {
    expect(await names('kind=brand')).toEqual(['Artek', 'Eames', 'École', 'Ekström Möbler', 'Zanotta']);
    expect(await names('kind=color&locale=sv')).toEqual(['Röd']);
  });

  test('q matches name prefixes ignoring case and accents', async () => {
    expect(await names('kind=brand&q=e')).toEqual(['Eames', 'École', 'Ekström Möbler']);
    expect(await names('kind=brand&q=ec')).toEqual(['École']);
    expect(await names('kind=brand&q=%C3%89CO')).toEqual(['École']);
    expect(await names('kind=brand&q=ekstrom')).toEqual(['Ekström Möbler']);
    expect(await names('kind=brand&q=m%C3%B6bler')).toEqual([]); // prefix of the name, not of a later word
    expect(await names('kind=brand&q=%25')).toEqual([]); // LIKE wildcards are literal
  });

  test('term body: description in the locale, falling back to the default language', async () => {
    const [ekstrom] = (await get('/v1/catalog-terms?kind=brand&q=ek&locale=sv')).json().items;
    expect(ekstrom).toEqual({ id: ekstrom.id, kind: 'brand', name: 'Ekström Möbler', slug: 'ekstrom', description: 'Svenska stolar.' });
    const [artek] = (await get('/v1/catalog-terms?kind=brand&q=art')).json().items;
    expect(artek).not.toHaveProperty('description');
  });

  test('cursor paging walks every term once; the last page has no next_cursor', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const res = await get(`/v1/catalog-terms?kind=brand&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      seen.push(...body.items.map((t: { slug: string }) => t.slug));
      cursor = body.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(['artek', 'eames', 'ecole', 'ekstrom', 'zanotta']);
    const exact = (await get('/v1/catalog-terms?kind=brand&limit=5')).json();
    expect(exact.items).toHaveLength(5);
    expect(exact).not.toHaveProperty('next_cursor');
  });

  test('a cursor from another query is refused', async () => {
    const { next_cursor } = (await get('/v1/catalog-terms?kind=brand&limit=1')).json();
    const res = await get(`/v1/catalog-terms?kind=brand&limit=1&q=e&cursor=${next_cursor}`);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors[0]).toMatchObject({ location: 'query.cursor', value: next_cursor });
    expect((await get('/v1/catalog-terms?kind=brand&cursor=not-a-cursor')).statusCode).toBe(422);
  });

  test('limit 1..200: edges accepted, one past refused', async () => {
    expect((await get('/v1/catalog-terms?kind=brand&limit=1')).statusCode).toBe(200);
    expect((await get('/v1/catalog-terms?kind=brand&limit=200')).statusCode).toBe(200);
    for (const bad of ['0', '201', '1.5', 'ten']) {
      const res = await get(`/v1/catalog-terms?kind=brand&limit=${bad}`);
      expect(res.statusCode, bad).toBe(422);
      expect(res.json().errors[0].location).toBe('query.limit');
    }
  });

  test('q up to 200 characters', async () => {
    expect((await get(`/v1/catalog-terms?kind=brand&q=${'a'.repeat(200)}`)).statusCode).toBe(200);
    expect((await get(`/v1/catalog-terms?kind=brand&q=${'a'.repeat(201)}`)).statusCode).toBe(422);
  });

  test('kind is required and must be one of the marketplace’s; every problem is listed at once', async () => {
    const missing = await get('/v1/catalog-terms');
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors).toEqual([{ location: 'query.kind', message: 'Required.', value: null }]);
    const res = await get(`/v1/catalog-terms?kind=size&limit=0&q=${'x'.repeat(201)}&in_use=maybe`);
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body.errors.map((e: { location: string }) => e.location).sort()).toEqual(['query.in_use', 'query.kind', 'query.limit', 'query.q']);
    expect(body.errors.find((e: { location: string }) => e.location === 'query.kind')).toEqual({
      location: 'query.kind',
      message: "Must be one of the marketplace's term kinds: brand, color.",
      value: 'size',
    });
    expect(body.detail).toBe('The request has 4 invalid fields; see errors.');
  });

  test('in_use=true: all terms used by listings on sale, no paging (none on sale yet)', async () => {
    const res = await get('/v1/catalog-terms?kind=brand&in_use=true&q=zzz&limit=1');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ items: [] });
    expect((await get('/v1/catalog-terms?kind=brand&in_use=false')).json().items).toHaveLength(5);
  });
});

describe('GET /v1/catalog-terms/{kind}/{slug}', () => {
  test('one term with its description in the locale', async () => {
    const res = await get('/v1/catalog-terms/brand/ekstrom?locale=sv');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ kind: 'brand', slug: 'ekstrom', name: 'Ekström Möbler', description: 'Svenska stolar.' });
  });

  test('path parameters are percent-decoded once: %65kstr%6Fm is ekstrom, %2565kstrom is the slug "%65kstrom" (404)', async () => {
    const encoded = await get('/v1/catalog-terms/br%61nd/%65kstr%6Fm');
    expect(encoded.statusCode).toBe(200);
    expect(encoded.json()).toMatchObject({ kind: 'brand', slug: 'ekstrom' });
    expect((await get('/v1/catalog-terms/brand/%2565kstrom')).statusCode).toBe(404);
  });

  test('unknown slug or kind → 404 problem', async () => {
    for (const url of ['/v1/catalog-terms/brand/nope', '/v1/catalog-terms/size/ekstrom', '/v1/catalog-terms/color/ekstrom']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type']).toBe('application/problem+json');
      expect(res.json()).toMatchObject({ status: 404, code: 'not_found', title: 'Not found' });
    }
  });
});

describe('GET /v1/locations', () => {
  test('active sites only, with every SiteBody field', async () => {
    const res = await get('/v1/locations');
    expect(res.statusCode).toBe(200);
    const items = res.json().items;
    expect(items).toHaveLength(1);
    expect(items[0]).toEqual({
      id: items[0].id,
      kind: 'showroom',
      name: 'Showroom',
      line1: 'Götgatan 1',
      postal_code: '11646',
      city: 'Stockholm',
      country: 'SE',
      active: true,
      buyer_pickup: true,
      created_at: items[0].created_at,
      opening_hours: 'Tue–Sat 11–18',
    });
    expect(new Date(items[0].created_at).toISOString()).toBe(items[0].created_at);
  });
});

describe('GET /v1/categories read as plain rows', () => {
  test("siblings of one position by slug, a child under its parent whatever the order they were made in; another marketplace's categories never", async () => {
    const other = await makeCatalog(h, 'ties');
    await h.console.categories.import({
      marketplace: 'ties',
      items: [
        { slug: 'zeta', names: { en: 'Zeta' }, position: 5 },
        { slug: 'alpha-kid', names: { en: 'Alpha kid', sv: 'Alfabarn' }, parent: 'alpha', position: 0 },
        { slug: 'alpha', names: { en: 'Alpha' }, position: 5 },
      ],
    });
    const res = await h.request({ method: 'GET', url: '/v1/categories?locale=sv', key: other.publishable });
    const items = res.json().items as { slug: string; name: string; parent_id?: string }[];
    expect(items.map((c) => c.slug)).toEqual(['furniture', 'chairs', 'tables', 'lighting', 'alpha', 'alpha-kid', 'zeta']);
    expect(items[5]).toMatchObject({ name: 'Alfabarn', parent_id: expect.any(String) });
    expect(items[4]!.name).toBe('Alpha');
    const mine = (await get('/v1/categories')).json().items as { slug: string }[];
    expect(mine.map((c) => c.slug)).not.toContain('alpha');
  });
});
