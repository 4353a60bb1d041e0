import { describe, expect, test } from 'vitest';
import { uploadPhoto } from './harness.js';
import { sellingSuite, type Method } from './selling.suite.js';

/** Selling: create and read, input validation, publish validation (the listing status table: listing-status.e2e.test.ts). */
const s = sellingSuite();
const { as, complete, draftWithPhoto, publish } = s;

describe('create and read', () => {
  test('POST creates a draft that may be incomplete; every ListingBody field is there', async () => {
    const res = await as(s.open, s.seller)('POST', '/v1/me/listings', {});
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      id: expect.any(String),
      seller_id: expect.any(String),
      title: '',
      description: '',
      locale: 'en',
      status: 'draft',
      attributes: {},
      terms: {},
      stock: 1,
      favorite_count: 0,
      images: [],
      location: {},
      delivery: {},
      custody: 'seller',
      fulfilment: 'seller',
      units_reserved: 0,
      units_sold: 0,
      created_at: s.h.clock.now().toISOString(),
      updated_at: s.h.clock.now().toISOString(),
    });
  });

  test('terms come back as TermRefs with descriptions, price as Money, images in order', async () => {
    const content = complete(s.open);
    const id = await draftWithPhoto(s.open, s.seller, { ...content, locale: 'sv' });
    const body = (await as(s.open, s.seller)('GET', `/v1/me/listings/${id}`)).json();
    expect(body.terms.brand).toEqual({ id: s.open.brand.artek, name: 'Artek', slug: 'artek', descriptions: {} });
    expect(body.terms.color).toMatchObject({ id: s.open.color.red, name: 'Röd', slug: 'red' });
    expect(body.price).toEqual({ amount: 250000, currency: 'SEK' });
    expect(body.images).toEqual([
      { id: expect.any(String), status: 'ready', width: 1200, height: 900, urls: { thumb: expect.stringMatching(/^http:\/\/localhost:4000\/v1\/images\/[0-9a-f-]{36}\/thumb\.jpg$/), medium: expect.any(String), large: expect.any(String) } },
    ]);
    expect(body).toMatchObject({ category_id: s.open.category.chairs, location: content.location, delivery: content.delivery, locale: 'sv' });
  });

  test('GET /v1/me/listings: only mine, every status, latest change first, cursor paging without gaps', async () => {
    const mine = as(s.open, s.other);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      s.h.clock.advance(1000);
      ids.push((await mine('POST', '/v1/me/listings', { title: `Lamp ${i}` })).json().id);
    }
    s.h.clock.advance(1000);
    await mine('PUT', `/v1/me/listings/${ids[0]}`, { title: 'Lamp 0, edited' }); // now the latest change
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = (await mine('GET', `/v1/me/listings?limit=2${cursor ? `&cursor=${cursor}` : ''}`)).json();
      seen.push(...page.items.map((l: { id: string }) => l.id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toEqual([ids[0], ids[4], ids[3], ids[2], ids[1]]);
    expect((await mine('GET', '/v1/me/listings?cursor=garbage')).statusCode).toBe(422);
    expect((await mine('GET', '/v1/me/listings?limit=101')).statusCode).toBe(422);
  });

  test("another seller's and another marketplace's listings are 404 everywhere", async () => {
    const id = (await as(s.open, s.seller)('POST', '/v1/me/listings', { title: 'Mine' })).json().id;
    const stranger = as(s.open, s.other);
    for (const [method, url, body] of [
      ['GET', `/v1/me/listings/${id}`],
      ['PUT', `/v1/me/listings/${id}`, { title: 'x' }],
      ['DELETE', `/v1/me/listings/${id}`],
      ['POST', `/v1/me/listings/${id}/publish`, {}],
      ['POST', `/v1/me/listings/${id}/close`],
      ['POST', `/v1/me/listings/${id}/offer/accept`],
      ['PUT', `/v1/me/listings/${id}/images/order`, { image_ids: [crypto.randomUUID()] }],
    ] as [Method, string, unknown?][]) {
      expect((await stranger(method, url, body)).statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await uploadPhoto(s.h, s.open.secret, s.other, id, s.photo)).statusCode).toBe(404);
    expect((await as(s.curated, s.curator)('GET', `/v1/me/listings/${id}`)).statusCode).toBe(404);
    expect((await as(s.open, s.seller)('GET', `/v1/me/listings/${crypto.randomUUID()}`)).statusCode).toBe(404);
  });
});

describe('input validation', () => {
  test('limits and references: all problems at once', async () => {
    const res = await as(s.open, s.seller)('POST', '/v1/me/listings', {
      title: 't'.repeat(141),
      description: 'd'.repeat(10001),
      price: { amount: 100, currency: 'USD' },
      terms: { brand: 'not-a-uuid', size: s.open.brand.artek },
      stock: 0,
      locale: 'fr',
      price_schedule: [{ months: 2, amount: 90 }, { months: 1, amount: 95 }],
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.map((e: { location: string }) => e.location).sort()).toEqual(
      ['body.description', 'body.locale', 'body.price.currency', 'body.price_schedule.1.amount', 'body.price_schedule.1.months', 'body.stock', 'body.terms.brand', 'body.terms.size', 'body.title'].sort(),
    );
    const ok = await as(s.open, s.seller)('POST', '/v1/me/listings', { title: 't'.repeat(140), description: 'd'.repeat(10000) });
    expect(ok.statusCode).toBe(201);
  });

  test('ids must exist in this marketplace and a term must be of its kind', async () => {
    const res = await as(s.open, s.seller)('POST', '/v1/me/listings', { category_id: s.curated.category.chairs, terms: { brand: s.open.color.red, color: s.curated.color.red } });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.map((e: { location: string }) => e.location).sort()).toEqual(['body.category_id', 'body.terms.brand', 'body.terms.color']);
  });

  test('shipping_size is the team’s: a seller setting it gets 403; sending back the current value is fine', async () => {
    const set = await as(s.curated, s.curator)('POST', '/v1/me/listings', { shipping_size: 'small' });
    expect(set.statusCode).toBe(403);
    expect(set.json()).toMatchObject({ code: 'forbidden', errors: [{ location: 'body.shipping_size' }] });
    const id = (await as(s.curated, s.curator)('POST', '/v1/me/listings', { title: 'Sofa' })).json().id;
    await s.h.console.listings.setShippingSize({ id, size: 'small' });
    const roundTrip = await as(s.curated, s.curator)('PUT', `/v1/me/listings/${id}`, { title: 'Sofa', shipping_size: 'small' });
    expect(roundTrip.json().shipping_size).toBe('small');
    expect((await as(s.curated, s.curator)('PUT', `/v1/me/listings/${id}`, { title: 'Sofa', shipping_size: '' })).statusCode).toBe(403);
    // omitted leaves it unchanged
    expect((await as(s.curated, s.curator)('PUT', `/v1/me/listings/${id}`, { title: 'Sofa 2' })).json().shipping_size).toBe('small');
  });
});

describe('publish validation (422 lists every missing item)', () => {
  test('an empty draft: every item at once', async () => {
    const id = (await as(s.open, s.seller)('POST', '/v1/me/listings', { delivery: { shipping: {} } })).json().id;
    const res = await publish(s.open, s.seller, id);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.map((e: { location: string }) => e.location).sort()).toEqual(
      ['body.attributes.condition', 'body.category_id', 'body.delivery.shipping.price', 'body.images', 'body.location.country', 'body.price', 'body.terms.brand', 'body.title'].sort(),
    );
  });

  const knockOut: [string, (c: ReturnType<typeof complete>) => Record<string, unknown>, string][] = [
    ['title', (c) => ({ ...c, title: '' }), 'body.title'],
    ['country', (c) => ({ ...c, location: { city: 'Stockholm' } }), 'body.location.country'],
    ['price', ({ price: _p, ...c }) => c, 'body.price'],
    ['delivery method', (c) => ({ ...c, delivery: {} }), 'body.delivery'],
    ['category', ({ category_id: _c, ...c }) => c, 'body.category_id'],
    ['required term', (c) => ({ ...c, terms: { color: c.terms.color } }), 'body.terms.brand'],
    ['attributes against the schema', (c) => ({ ...c, attributes: { condition: 'mint', year: 1962 } }), 'body.attributes.condition'],
    ['attribute type', (c) => ({ ...c, attributes: { condition: 'good', year: 1700 } }), 'body.attributes.year'],
    ['shipping price without a shipping table', (c) => ({ ...c, delivery: { shipping: {} } }), 'body.delivery.shipping.price'],
  ];
  test.each(knockOut)('missing %s alone', async (_name, change, location) => {
    const id = await draftWithPhoto(s.open, s.seller, change(complete(s.open)));
    const res = await publish(s.open, s.seller, id);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.map((e: { location: string }) => e.location)).toEqual([location]);
  });

  test('photos alone: a processing photo does not count, a ready one does', async () => {
    const id = (await as(s.open, s.seller)('POST', '/v1/me/listings', complete(s.open))).json().id;
    expect((await publish(s.open, s.seller, id)).json().errors).toEqual([{ location: 'body.images', message: expect.stringContaining('At least 1'), value: 0 }]);
    await uploadPhoto(s.h, s.open.secret, s.seller, id, s.photo);
    expect((await publish(s.open, s.seller, id)).json().errors.map((e: { location: string }) => e.location)).toEqual(['body.images']);
    await s.h.runJobs();
    expect((await publish(s.open, s.seller, id)).json().status).toBe('published');
  });

  test('with a shipping table, shipping needs the size the team sets', async () => {
    await s.h.console.marketplace.update({ marketplace: 'curated', settings: { listings: { min_images: 1, require_approval: false, require_category: false, required_terms: [], valuations: true } } });
    try {
      const id = await draftWithPhoto(s.curated, s.curator, { ...complete(s.curated), terms: {}, attributes: {}, category_id: undefined, delivery: { shipping: {} } });
      expect((await publish(s.curated, s.curator, id)).json().errors.map((e: { location: string }) => e.location)).toEqual(['body.shipping_size']);
      await s.h.console.listings.setShippingSize({ id, size: 'small' });
      expect((await publish(s.curated, s.curator, id)).json().status).toBe('published');
    } finally {
      await s.h.console.marketplace.update({ marketplace: 'curated', settings: { listings: { min_images: 1, require_approval: true, require_category: false, required_terms: [], valuations: true } } });
    }
  });

  test('with approval on only title, photos, country and price are checked', async () => {
    const id = await draftWithPhoto(s.curated, s.curator, { title: 'Lamp', price: { amount: 5000, currency: 'EUR' }, location: { country: 'SE' } });
    const res = await publish(s.curated, s.curator, id);
    expect(res.json().status).toBe('pending_approval');
    const bare = (await as(s.curated, s.curator)('POST', '/v1/me/listings', { delivery: {} })).json().id;
    expect((await publish(s.curated, s.curator, bare)).json().errors.map((e: { location: string }) => e.location).sort()).toEqual(['body.images', 'body.location.country', 'body.price', 'body.title']);
  });

  test('ask_valuation needs valuations on (422 otherwise) and no price', async () => {
    const id = await draftWithPhoto(s.open, s.seller, complete(s.open));
    expect((await publish(s.open, s.seller, id, { ask_valuation: true })).json().errors).toEqual([{ location: 'body.ask_valuation', message: expect.any(String), value: true }]);
    const noPrice = await draftWithPhoto(s.curated, s.curator, { title: 'Mirror', location: { country: 'SE' } });
    expect((await publish(s.curated, s.curator, noPrice, { ask_valuation: true })).json().status).toBe('pending_valuation');
  });
});
