import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CatalogTermSchema, ListingImageSchema, ListingSchema, SiteSchema } from '@hm/db/entities';
import { tenantEm } from '@hm/db/orm';
import { imagesOf, listingOnSale, listingRowsInOrder, sitesByIds, termsByIds } from '@hm/domain/listing-search';
import { makeSellingMarketplace, putOnSale, signUp, startHarness, type Harness } from './harness.js';

/** The shop: search, a listing page, favourites, terms in use, prices across currencies. */
let h: Harness;
type Market = Awaited<ReturnType<typeof makeSellingMarketplace>>;
let m: Market;
let other: Market;
let alice: string;
let bob: string;
let aliceId: string;

type Method = 'GET' | 'PUT' | 'POST' | 'DELETE';
const call = (method: Method, url: string, opts: { session?: string; payload?: unknown; key?: string } = {}) =>
  h.request({ method, url, key: opts.key ?? m.secret, session: opts.session, ...(opts.payload !== undefined ? { payload: opts.payload as object } : {}) });

/** A listing put on sale by `session`; each a second after the previous, so "newest" is well defined. */
const onSale = (session: string, content: Record<string, unknown>, market = m) => putOnSale(h, market.secret, session, content);

const search = async (query: string, session?: string) => {
  const res = await call('GET', `/v1/listings${query ? `?${query}` : ''}`, { session });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { items: { id: string; title: string; display_price?: { amount: number; currency: string }; favorited?: boolean; favorite_count: number }[]; next_cursor?: string; total: number };
};
const ids = async (query: string) => (await search(query)).items.map((i) => i.title);

const L: Record<string, string> = {};

beforeAll(async () => {
  h = await startHarness();
  m = await makeSellingMarketplace(h, 'shop', { min_images: 0 });
  other = await makeSellingMarketplace(h, 'elsewhere', { min_images: 0 });
  await h.console.categories.import({ marketplace: 'shop', items: [{ slug: 'armchairs', names: { en: 'Armchairs' }, parent: 'chairs', position: 1 }] });
  m.category.armchairs = (await call('GET', '/v1/categories')).json().items.find((c: { slug: string }) => c.slug === 'armchairs').id;
  // 1 EUR = 11.50 SEK from yesterday; an older rate must not count
  await h.console.rates.set({ marketplace: 'shop', date: '2026-01-01', base: 'EUR', rates: { SEK: 20 } });
  await h.console.rates.set({ marketplace: 'shop', date: '2026-11-21', base: 'EUR', rates: { SEK: 11.5 } });
  await h.runJobs();
  const a = await signUp(h, m.secret, { email: 'alice@example.com', password: 'alice password', display_name: 'Alice Antiques' });
  alice = a.token;
  aliceId = a.user.id;
  bob = (await signUp(h, m.secret, { email: 'bob@example.com' })).token;

  L.cafe = await onSale(alice, { title: 'Café table', description: 'Round, oak.', category_id: m.category.tables, price: { amount: 150000, currency: 'SEK' }, attributes: { condition: 'good' } });
  L.ecole = await onSale(alice, { title: 'School chair', description: 'Stackable.', terms: { brand: m.brand.ecole, color: m.color.red }, category_id: m.category.chairs, price: { amount: 10000, currency: 'EUR' }, attributes: { condition: 'worn' } });
  L.lounge = await onSale(bob, { title: 'Lounge chair', description: 'Like a café seat, deep.', terms: { brand: m.brand.artek }, category_id: m.category.armchairs, price: { amount: 120000, currency: 'SEK' }, attributes: { condition: 'new' } });
  L.lamp = await onSale(bob, { title: 'Ekström lamp', description: 'Brass.', terms: { brand: m.brand.ekstrom }, category_id: m.category.lighting, price: { amount: 5000, currency: 'EUR' } });
  L.stool = await onSale(alice, { title: 'Bar stool', description: 'For the cafeteria counter.', terms: { brand: m.brand.artek, color: m.color.red }, category_id: m.category.chairs, price: { amount: 90000, currency: 'SEK' }, attributes: { condition: 'good' } });
  // not on sale: a draft, a closed listing, another marketplace's
  await h.request({ method: 'POST', url: '/v1/me/listings', key: m.secret, session: alice, payload: { title: 'Draft café sofa' } });
  L.closed = await onSale(alice, { title: 'Closed café bench' });
  await call('POST', `/v1/me/listings/${L.closed}/close`, { session: alice });
  const elsewhere = (await signUp(h, other.secret, { email: 'carl@example.com' })).token;
  L.foreign = await onSale(elsewhere, { title: 'Foreign café chair' }, other);
});
afterAll(() => h.close());

describe('GET /v1/listings', () => {
  test('without q: every listing on sale, newest first, with total', async () => {
    const page = await search('');
    expect(page.items.map((i) => i.title)).toEqual(['Bar stool', 'Ekström lamp', 'Lounge chair', 'School chair', 'Café table']);
    expect(page.total).toBe(5);
    expect(page.next_cursor).toBeUndefined();
  });

  test('q: accents and case ignored, word beginnings, every word must match, terms and descriptions count', async () => {
    expect(await ids('q=cafe')).toEqual(expect.arrayContaining(['Café table', 'Lounge chair', 'Bar stool']));
    expect((await search('q=cafe')).total).toBe(3); // title, description "café", description "cafeteria"
    expect(await ids('q=CA')).toEqual(expect.arrayContaining(['Café table']));
    expect(await ids('q=ekstrom')).toEqual(['Ekström lamp']);
    expect(await ids('q=ecole')).toEqual(['School chair']); // the term École
    expect(await ids('q=moebl')).toEqual([]); // ö folds to o, not oe
    expect(await ids('q=moebler')).toEqual(['Ekström lamp']); // … but moebler is one edit from mobler: a typo
    expect(await ids('q=ekstr%C3%B6m%20m%C3%B6b')).toEqual(['Ekström lamp']); // term name "Ekström Möbler"
    expect(await ids('q=chair%20red')).toEqual(['School chair']); // both words needed: title + colour term
    expect(await ids('q=sofa')).toEqual([]); // only in a draft
  });

  test('relevance: title matches before term matches before description matches', async () => {
    const titles = await ids('q=cafe');
    expect(titles[0]).toBe('Café table');
    expect(titles.slice(1).sort()).toEqual(['Bar stool', 'Lounge chair']);
    expect(await ids('q=artek')).toEqual(['Bar stool', 'Lounge chair']); // both term matches: newest first
    const chairs = await ids('q=chair');
    expect(chairs.slice(0, 2)).toEqual(['Lounge chair', 'School chair']); // titles first
  });

  test('sorts: price across currencies at the day’s rate, popular, newest', async () => {
    // SEK: 1500.00, 1200.00, 900.00; EUR 100.00 = SEK 1150.00; EUR 50.00 = SEK 575.00
    expect(await ids('sort=price_asc')).toEqual(['Ekström lamp', 'Bar stool', 'School chair', 'Lounge chair', 'Café table']);
    expect(await ids('sort=price_desc')).toEqual(['Café table', 'Lounge chair', 'School chair', 'Bar stool', 'Ekström lamp']);
    expect(await ids('sort=newest&q=chair')).toEqual(['Lounge chair', 'School chair']);
    expect((await search('sort=price_asc')).total).toBe(5);
  });

  test('a listing whose currency has no rate is left out of price sorts, and out of their total', async () => {
    const session = (await signUp(h, m.secret, { email: 'usd@example.com' })).token;
    await h.console.marketplace.update({ marketplace: 'shop', settings: { currencies: ['SEK', 'EUR', 'USD'] } });
    const usd = await onSale(session, { title: 'Dollar desk', price: { amount: 100, currency: 'USD' } });
    try {
      const all = await search('');
      expect(all.items.map((i) => i.id)).toContain(usd);
      const byPrice = await search('sort=price_asc');
      expect(byPrice.items.map((i) => i.id)).not.toContain(usd);
      expect(byPrice.total).toBe(all.total - 1);
    } finally {
      await call('POST', `/v1/me/listings/${usd}/close`, { session });
      await h.console.marketplace.update({ marketplace: 'shop', settings: { currencies: ['SEK', 'EUR'] } });
      await h.runJobs();
    }
  });

  test('filters: category with subcategories, terms, seller, attributes, price range in a currency', async () => {
    expect(await ids(`category=${m.category.chairs}`)).toEqual(['Bar stool', 'Lounge chair', 'School chair']);
    expect(await ids(`category=${m.category.furniture}`)).toHaveLength(4);
    expect(await ids(`term=${m.brand.artek}`)).toEqual(['Bar stool', 'Lounge chair']);
    expect(await ids(`term=${m.brand.artek}&term=${m.brand.ecole}`)).toEqual(['Bar stool', 'Lounge chair', 'School chair']); // any within a kind
    expect(await ids(`term=${m.brand.artek}&term=${m.color.red}`)).toEqual(['Bar stool']); // all kinds combined
    expect(await ids(`seller=${aliceId}`)).toEqual(['Bar stool', 'School chair', 'Café table']);
    expect(await ids('attr=condition:good')).toEqual(['Bar stool', 'Café table']);
    expect(await ids('attr=condition:good&attr=condition:new')).toEqual(['Bar stool', 'Lounge chair', 'Café table']);
    // default currency SEK: 1000.00..1300.00 → Lounge (1200) and School (EUR 100 = 1150)
    expect(await ids('min_price=100000&max_price=130000')).toEqual(['Lounge chair', 'School chair']);
    // in EUR: 80.00..110.00 = SEK 920..1265
    expect(await ids('min_price=8000&max_price=11000&currency=EUR')).toEqual(['Lounge chair', 'School chair']);
    expect((await search(`category=${m.category.chairs}&min_price=100000`)).total).toBe(2);
  });

  test('currency adds display_price converted at the day’s rate (half away from zero)', async () => {
    const page = await search('currency=EUR&sort=price_asc');
    expect(page.items.map((i) => [i.title, i.display_price])).toEqual([
      ['Ekström lamp', { amount: 5000, currency: 'EUR' }],
      ['Bar stool', { amount: 7826, currency: 'EUR' }], // 900 / 11.5 = 78.2608…
      ['School chair', { amount: 10000, currency: 'EUR' }],
      ['Lounge chair', { amount: 10435, currency: 'EUR' }], // 1200 / 11.5 = 104.3478…
      ['Café table', { amount: 13043, currency: 'EUR' }],
    ]);
    expect((await search('')).items[0]!.display_price).toBeUndefined();
  });

  test('cursor paging over ties: no duplicates, no gaps, stable while new listings are published', async () => {
    const session = (await signUp(h, m.secret, { email: 'tie@example.com' })).token;
    // five listings published at the very same instant: only the id breaks the tie
    const start = h.clock.now().getTime();
    const tied: string[] = [];
    for (let i = 0; i < 5; i++) {
      h.clock.set(new Date(start));
      tied.push(await onSale(session, { title: `Tied ${i}`, price: { amount: 500, currency: 'SEK' } }));
      h.clock.set(new Date(start));
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await search(`limit=3&seller=${(await call('GET', '/v1/me', { session })).json().id}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      seen.push(...page.items.map((i) => i.id));
      cursor = page.next_cursor;
      if (pages++ === 0) await onSale(session, { title: 'Published meanwhile' }); // newer: lands before the cursor
    } while (cursor);
    expect(seen).toHaveLength(5);
    expect(new Set(seen)).toEqual(new Set(tied));
    // price ties across pages too
    const byPrice: string[] = [];
    cursor = undefined;
    do {
      const page = await search(`limit=2&sort=price_asc&max_price=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      byPrice.push(...page.items.map((i) => i.id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(byPrice.sort()).toEqual([...tied].sort());
  });

  test('invalid parameters: 422 listing all of them; a cursor from another query is refused', async () => {
    const res = await call('GET', `/v1/listings?limit=101&sort=cheapest&q=${'x'.repeat(201)}&min_price=-1&currency=USD&attr=nocolon&category=${other.category.chairs}`);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.map((e: { location: string }) => e.location).sort()).toEqual(['query.attr.0', 'query.currency', 'query.limit', 'query.min_price', 'query.q', 'query.sort']);
    const unknownRefs = await call('GET', `/v1/listings?category=${other.category.chairs}&term=${other.brand.artek}`);
    expect(unknownRefs.json().errors.map((e: { location: string }) => e.location).sort()).toEqual(['query.category', 'query.term.0']);
    const first = await search('limit=1');
    const wrong = await call('GET', `/v1/listings?limit=1&sort=price_asc&cursor=${encodeURIComponent(first.next_cursor!)}`);
    expect(wrong.json()).toMatchObject({ status: 422, errors: [{ location: 'query.cursor' }] });
    expect((await call('GET', '/v1/listings?q=%20%21%21')).statusCode).toBe(200); // no words: no filter
  });

  test('publishable keys may search (public data)', async () => {
    expect((await call('GET', '/v1/listings', { key: m.publishable })).statusCode).toBe(200);
  });
});

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
    const draft = (await h.request({ method: 'POST', url: '/v1/me/listings', key: m.secret, session: alice, payload: { title: 'x' } })).json().id;
    expect((await call('GET', `/v1/listings/${draft}`)).statusCode).toBe(404);
    expect((await call('GET', `/v1/listings/${crypto.randomUUID()}`)).statusCode).toBe(404);
  });

  test('favorited appears only with a session; a session needs the secret key', async () => {
    expect((await call('GET', `/v1/listings/${L.cafe}`, { session: bob })).json().favorited).toBe(false);
    expect((await call('GET', `/v1/listings/${L.cafe}`, { key: m.publishable, session: bob })).statusCode).toBe(403);
    expect((await call('GET', `/v1/listings/${L.cafe}`, { session: 'sess_nope' })).statusCode).toBe(401);
  });
});

describe('favourites', () => {
  test('save (twice is fine), favorited and favorite_count, latest first, closed ones included, forget', async () => {
    const session = (await signUp(h, m.secret, { email: 'fan@example.com' })).token;
    expect((await call('PUT', `/v1/me/favorites/${L.lounge}`, { session })).statusCode).toBe(204);
    expect((await call('PUT', `/v1/me/favorites/${L.lounge}`, { session })).statusCode).toBe(204);
    h.clock.advance(1000);
    expect((await call('PUT', `/v1/me/favorites/${L.stool}`, { session })).statusCode).toBe(204);
    expect((await call('GET', `/v1/listings/${L.lounge}`, { session })).json()).toMatchObject({ favorited: true, favorite_count: 1 });
    const list = (await call('GET', '/v1/me/favorites?currency=EUR', { session })).json();
    expect(list.total).toBe(2);
    expect(list.items.map((i: { id: string }) => i.id)).toEqual([L.stool, L.lounge]);
    expect(list.items[0]).toMatchObject({ favorited: true, display_price: { currency: 'EUR' } });
    // the seller closes one: still in favourites, no longer in the shop
    await call('POST', `/v1/me/listings/${L.stool}/close`, { session: alice });
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
    await call('POST', `/v1/me/listings/${L.stool}/publish`, { session: alice, payload: {} });
  });

  test('favorite_count is exact under concurrent saves; popular sorts by it', async () => {
    const fans = await Promise.all(Array.from({ length: 6 }, (_, i) => signUp(h, m.secret, { email: `crowd${i}@example.com` })));
    const results = await Promise.all(fans.flatMap((f) => [call('PUT', `/v1/me/favorites/${L.ecole}`, { session: f.token }), call('PUT', `/v1/me/favorites/${L.ecole}`, { session: f.token })]));
    expect(results.every((r) => r.statusCode === 204)).toBe(true);
    const listing = (await call('GET', `/v1/listings/${L.ecole}`)).json();
    expect(listing.favorite_count).toBe(6);
    expect((await ids('sort=popular'))[0]).toBe('School chair');
    await Promise.all(fans.map((f) => call('DELETE', `/v1/me/favorites/${L.ecole}`, { session: f.token })));
    expect((await call('GET', `/v1/listings/${L.ecole}`)).json().favorite_count).toBe(0);
  });

  test('search says favorited per listing when a session is sent', async () => {
    await call('PUT', `/v1/me/favorites/${L.cafe}`, { session: bob });
    const page = await search('q=cafe', bob);
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
    expect(colors).toEqual([{ id: m.color.red, kind: 'color', name: 'Red', slug: 'red', listing_count: 2 }]);
  });

  test("a blocked seller's listings leave the shop and come back when unblocked", async () => {
    const before = (await search('')).total;
    await h.console.users.block({ marketplace: 'shop', email: 'bob@example.com' });
    expect(await ids('')).not.toContain('Lounge chair');
    expect((await search('')).total).toBe(before - 2); // the unfiltered total is a kept count: it follows blocks too
    expect((await call('GET', `/v1/listings/${L.lounge}`)).statusCode).toBe(404);
    expect((await call('GET', '/v1/catalog-terms?kind=brand&in_use=true')).json().items.find((t: { slug: string }) => t.slug === 'artek').listing_count).toBe(1);
    await h.console.users.unblock({ marketplace: 'shop', email: 'bob@example.com' });
    expect(await ids('')).toContain('Lounge chair');
    expect((await search('')).total).toBe(before);
    const [row] = await h.orm.em.getConnection().execute<{ counted: number }[]>(
      `select count(*)::int as counted from listings where marketplace_id = ? and status = 'published' and stock > 0 and not seller_blocked`,
      [(await call('GET', '/v1/marketplace')).json().id],
    );
    expect(before).toBe(row!.counted);
  });

  test('new rates re-order prices once the reprice job has run', async () => {
    // the euro halves against the krona: EUR 100 = SEK 575, EUR 50 = SEK 287.50
    await h.console.rates.set({ marketplace: 'shop', date: '2026-11-22', base: 'EUR', rates: { SEK: 5.75 } });
    await h.runJobs();
    const order = await ids('sort=price_asc');
    expect(order.indexOf('School chair')).toBeLessThan(order.indexOf('Bar stool'));
    expect(await ids('max_price=60000')).toEqual(expect.arrayContaining(['Ekström lamp', 'School chair']));
    await h.console.rates.set({ marketplace: 'shop', date: '2026-11-22', base: 'EUR', rates: { SEK: 11.5 } });
    await h.runJobs();
  });
});

test('the shop reads its listings, photos, terms and sites by plain SQL as the same objects the ORM hydrates', async () => {
  // a listing of its own (the tests above count theirs) with every kind of column filled: a photo, a
  // site, an offer (int8), a schedule (json), dates, a double
  const dana = (await signUp(h, m.secret, { email: 'dana@example.com', display_name: 'Dana' })).token;
  const reading = await onSale(dana, { title: 'Reading lamp', description: 'Brass.', terms: { brand: m.brand.ekstrom, color: m.color.red }, category_id: m.category.lighting, price: { amount: 5000, currency: 'EUR' } });
  const em = tenantEm(h.orm, m.marketplace.id);
  const lamp = await em.findOneOrFail(ListingSchema, { id: reading });
  Object.assign(lamp, { siteId: m.siteId, offerAmount: 4000, offerCurrency: 'EUR', offerNote: 'Fair.', priceSchedule: [{ months: 1, amount: 4500 }], scheduleStartedAt: new Date('2026-11-01T00:00:00.000Z'), commissionPercent: 12.5 });
  em.create(ListingImageSchema, { marketplaceId: m.marketplace.id, listingId: reading, position: 0, status: 'ready', format: 'jpeg', bytes: 1234, width: 1600, height: 1200, error: null, updatedAt: new Date() });
  await em.flush();
  const plain = (schema: { meta: { properties: object } }, e: object) => Object.fromEntries(Object.keys(schema.meta.properties).map((k) => [k, (e as Record<string, unknown>)[k]]));
  const read = tenantEm(h.orm, m.marketplace.id);
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
    expect(await sitesByIds(tx, [m.siteId])).toEqual((await tx.find(SiteSchema, { id: m.siteId })).map((s) => plain(SiteSchema, s)));
  });
  // and the page shows them
  const page = (await call('GET', `/v1/listings/${reading}`)).json();
  expect(page.images).toHaveLength(1);
  expect(page.site.id).toBe(m.siteId);
  expect(page.seller.display_name).toBe('Dana');
});
