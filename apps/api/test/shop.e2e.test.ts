import { describe, expect, test } from 'vitest';
import { CatalogTermSchema, ListingImageSchema, ListingSchema, SiteSchema } from '@hm/db/entities';
import { tenantEm } from '@hm/db/orm';
import { imagesOf, listingOnSale, listingRowsInOrder, sitesByIds, termsByIds } from '@hm/domain/listing-search';
import { signUp } from './harness.js';
import { shopSuite } from './shop.suite.js';

/** The shop: a listing page, favourites, terms in use, blocked sellers, rates changing, rows read by plain SQL. Its search: shop-search.e2e.test.ts. */
const s = shopSuite();
const { L, call, onSale, search, ids } = s;

describe('GET /v1/listings/{id}', () => {
  test('a listing on sale, with term descriptions, display_price and the seller\'s public name; private fields stay private', async () => {
    const res = await call('GET', `/v1/listings/${L.lamp}?currency=SEK`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ id: L.lamp, status: 'published', display_price: { amount: 57500, currency: 'SEK' }, terms: { brand: { slug: 'ekstrom', descriptions: { en: 'Swedish chairs.', sv: 'Svenska stolar.' } } } });
    expect(body.seller).toEqual({ id: body.seller_id, display_name: '' }); // bob chose no public name
    const cafe = (await call('GET', `/v1/listings/${L.cafe}`)).json();
    expect(cafe.seller).toEqual({ id: cafe.seller_id, display_name: 'Alice Antiques' });
    // search results stay lean: the seller's name is on single listings only
    expect((await call('GET', '/v1/listings')).json().items[0].seller).toBeUndefined();
    expect(body.favorited).toBeUndefined();
    for (const k of ['offer', 'offer_note', 'review_note', 'commission_percent', 'wants_storage']) expect(body[k], k).toBeUndefined();
  });

  test('drafts, closed listings and other marketplaces’ listings are 404', async () => {
    expect((await call('GET', `/v1/listings/${L.closed}`)).statusCode).toBe(404);
    expect((await call('GET', `/v1/listings/${L.foreign}`)).statusCode).toBe(404);
    const draft = (await s.h.request({ method: 'POST', url: '/v1/me/listings', key: s.m.secret, session: s.alice, payload: { title: 'x' } })).json().id;
    expect((await call('GET', `/v1/listings/${draft}`)).statusCode).toBe(404);
    expect((await call('GET', `/v1/listings/${crypto.randomUUID()}`)).statusCode).toBe(404);
  });

  test('favorited appears only with a session; a session needs the secret key', async () => {
    expect((await call('GET', `/v1/listings/${L.cafe}`, { session: s.bob })).json().favorited).toBe(false);
    expect((await call('GET', `/v1/listings/${L.cafe}`, { key: s.m.publishable, session: s.bob })).statusCode).toBe(403);
    expect((await call('GET', `/v1/listings/${L.cafe}`, { session: 'sess_nope' })).statusCode).toBe(401);
  });
});

describe('favourites', () => {
  test('save (twice is fine), favorited and favorite_count, latest first, closed ones included, forget', async () => {
    const session = (await signUp(s.h, s.m.secret, { email: 'fan@example.com' })).token;
    expect((await call('PUT', `/v1/me/favorites/${L.lounge}`, { session })).statusCode).toBe(204);
    expect((await call('PUT', `/v1/me/favorites/${L.lounge}`, { session })).statusCode).toBe(204);
    s.h.clock.advance(1000);
    expect((await call('PUT', `/v1/me/favorites/${L.stool}`, { session })).statusCode).toBe(204);
    expect((await call('GET', `/v1/listings/${L.lounge}`, { session })).json()).toMatchObject({ favorited: true, favorite_count: 1 });
    const list = (await call('GET', '/v1/me/favorites?currency=EUR', { session })).json();
    expect(list.total).toBe(2);
    expect(list.items.map((i: { id: string }) => i.id)).toEqual([L.stool, L.lounge]);
    expect(list.items[0]).toMatchObject({ favorited: true, display_price: { currency: 'EUR' } });
    // the seller closes one: still in favourites, no longer in the shop
    await call('POST', `/v1/me/listings/${L.stool}/close`, { session: s.alice });
    const after = (await call('GET', '/v1/me/favorites', { session })).json();
    expect(after.items.map((i: { id: string; status: string }) => [i.id, i.status])).toEqual([
      [L.stool, 'closed'],
      [L.lounge, 'published'],
    ]);
    expect((await call('PUT', `/v1/me/favorites/${L.stool}`, { session })).statusCode).toBe(404); // only listings on sale
    expect((await call('DELETE', `/v1/me/favorites/${L.stool}`, { session })).statusCode).toBe(204);
    expect((await call('DELETE', `/v1/me/favorites/${L.stool}`, { session })).statusCode).toBe(204);
    expect((await call('GET', '/v1/me/favorites', { session })).json().total).toBe(1);
    // back on sale for the other tests
    await call('POST', `/v1/me/listings/${L.stool}/publish`, { session: s.alice, payload: {} });
  });

  test('favorite_count is exact under concurrent saves; popular sorts by it', async () => {
    const fans = await Promise.all(Array.from({ length: 6 }, (_, i) => signUp(s.h, s.m.secret, { email: `crowd${i}@example.com` })));
    const results = await Promise.all(fans.flatMap((f) => [call('PUT', `/v1/me/favorites/${L.ecole}`, { session: f.token }), call('PUT', `/v1/me/favorites/${L.ecole}`, { session: f.token })]));
    expect(results.every((r) => r.statusCode === 204)).toBe(true);
    const listing = (await call('GET', `/v1/listings/${L.ecole}`)).json();
    expect(listing.favorite_count).toBe(6);
    expect((await ids('sort=popular'))[0]).toBe('School chair');
    await Promise.all(fans.map((f) => call('DELETE', `/v1/me/favorites/${L.ecole}`, { session: f.token })));
    expect((await call('GET', `/v1/listings/${L.ecole}`)).json().favorite_count).toBe(0);
  });

  test('search says favorited per listing when a session is sent', async () => {
    await call('PUT', `/v1/me/favorites/${L.cafe}`, { session: s.bob });
    const page = await search('q=cafe', s.bob);
    expect(Object.fromEntries(page.items.map((i) => [i.title, i.favorited]))).toEqual({ 'Café table': true, 'Lounge chair': false, 'Bar stool': false });
    expect((await search('q=cafe')).items.every((i) => i.favorited === undefined)).toBe(true);
  });
});

describe('catalogue terms in use; blocked sellers; rates changing', () => {
  test('in_use=true: every term used by listings on sale with listing_count, q ignored', async () => {
    const brands = (await call('GET', '/v1/catalog-terms?kind=brand&in_use=true&q=zzz')).json().items;
    expect(brands.map((t: { slug: string; listing_count: number }) => [t.slug, t.listing_count])).toEqual([
      ['artek', 2],
      ['ecole', 1],
      ['ekstrom', 1],
    ]);
    const colors = (await call('GET', '/v1/catalog-terms?kind=color&in_use=true')).json().items;
    expect(colors).toEqual([{ id: s.m.color.red, kind: 'color', name: 'Red', slug: 'red', listing_count: 2 }]);
  });

  test("a blocked seller's listings leave the shop and come back when unblocked", async () => {
    const before = (await search('')).total;
    await s.h.console.users.block({ marketplace: 'shop', email: 'bob@example.com' });
    expect(await ids('')).not.toContain('Lounge chair');
    expect((await search('')).total).toBe(before - 2); // the unfiltered total is a kept count: it follows blocks too
    expect((await call('GET', `/v1/listings/${L.lounge}`)).statusCode).toBe(404);
    expect((await call('GET', '/v1/catalog-terms?kind=brand&in_use=true')).json().items.find((t: { slug: string }) => t.slug === 'artek').listing_count).toBe(1);
    await s.h.console.users.unblock({ marketplace: 'shop', email: 'bob@example.com' });
    expect(await ids('')).toContain('Lounge chair');
    expect((await search('')).total).toBe(before);
    const [row] = await s.h.orm.em.getConnection().execute<{ counted: number }[]>(
      `select count(*)::int as counted from listings where marketplace_id = ? and status = 'published' and stock > 0 and not seller_blocked`,
      [(await call('GET', '/v1/marketplace')).json().id],
    );
    expect(before).toBe(row!.counted);
  });

  test('new rates re-order prices once the reprice job has run', async () => {
    // the euro halves against the krona: EUR 100 = SEK 575, EUR 50 = SEK 287.50
    await s.h.console.rates.set({ marketplace: 'shop', date: '2026-11-22', base: 'EUR', rates: { SEK: 5.75 } });
    await s.h.runJobs();
    const order = await ids('sort=price_asc');
    expect(order.indexOf('School chair')).toBeLessThan(order.indexOf('Bar stool'));
    expect(await ids('max_price=60000')).toEqual(expect.arrayContaining(['Ekström lamp', 'School chair']));
    await s.h.console.rates.set({ marketplace: 'shop', date: '2026-11-22', base: 'EUR', rates: { SEK: 11.5 } });
    await s.h.runJobs();
  });
});

test('the shop reads its listings, photos, terms and sites by plain SQL as the same objects the ORM hydrates', async () => {
  // a listing of its own (the tests above count theirs) with every kind of column filled: a photo, a
  // site, an offer (int8), a schedule (json), dates, a double
  const dana = (await signUp(s.h, s.m.secret, { email: 'dana@example.com', display_name: 'Dana' })).token;
  const reading = await onSale(dana, { title: 'Reading lamp', description: 'Brass.', terms: { brand: s.m.brand.ekstrom, color: s.m.color.red }, category_id: s.m.category.lighting, price: { amount: 5000, currency: 'EUR' } });
  const em = tenantEm(s.h.orm, s.m.marketplace.id);
  const lamp = await em.findOneOrFail(ListingSchema, { id: reading });
  Object.assign(lamp, { siteId: s.m.siteId, offerAmount: 4000, offerCurrency: 'EUR', offerNote: 'Fair.', priceSchedule: [{ months: 1, amount: 4500 }], scheduleStartedAt: new Date('2026-11-01T00:00:00.000Z'), commissionPercent: 12.5 });
  em.create(ListingImageSchema, { marketplaceId: s.m.marketplace.id, listingId: reading, position: 0, status: 'ready', format: 'jpeg', bytes: 1234, width: 1600, height: 1200, error: null, updatedAt: new Date() });
  await em.flush();
  const plain = (schema: { meta: { properties: object } }, e: object) => Object.fromEntries(Object.keys(schema.meta.properties).map((k) => [k, (e as Record<string, unknown>)[k]]));
  const read = tenantEm(s.h.orm, s.m.marketplace.id);
  await read.transactional(async (tx) => {
    const ids = [...Object.values(L), reading];
    const orm = await tx.find(ListingSchema, { id: { $in: ids } });
    const rows = await listingRowsInOrder(tx, ids);
    expect(rows.map((r) => r.id)).toEqual(ids.filter((id) => orm.some((l) => l.id === id))); // the marketplace's own, in the order asked
    for (const row of rows) expect(row).toEqual(plain(ListingSchema, orm.find((l) => l.id === row.id)!));
    expect(await listingOnSale(tx, reading)).toEqual(plain(ListingSchema, orm.find((l) => l.id === reading)!));
    expect(await listingOnSale(tx, L.closed!)).toBeNull();
    expect(await listingOnSale(tx, L.foreign!)).toBeNull();
    const images = await tx.find(ListingImageSchema, { listingId: { $in: ids } }, { orderBy: { position: 'asc', createdAt: 'asc' } });
    expect(images.length).toBeGreaterThan(0);
    expect(await imagesOf(tx, ids)).toEqual(images.map((i) => plain(ListingImageSchema, i)));
    const termIds = [...new Set(orm.flatMap((l) => Object.values(l.terms)))];
    expect(termIds.length).toBeGreaterThan(1);
    expect(await termsByIds(tx, termIds)).toEqual(expect.arrayContaining((await tx.find(CatalogTermSchema, { id: { $in: termIds } })).map((t) => plain(CatalogTermSchema, t))));
    expect(await sitesByIds(tx, [s.m.siteId])).toEqual((await tx.find(SiteSchema, { id: s.m.siteId })).map((site) => plain(SiteSchema, site)));
  });
  // and the page shows them
  const page = (await call('GET', `/v1/listings/${reading}`)).json();
  expect(page.images).toHaveLength(1);
  expect(page.site.id).toBe(s.m.siteId);
  expect(page.seller.display_name).toBe('Dana');
});
