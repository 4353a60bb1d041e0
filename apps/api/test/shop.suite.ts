import { afterAll, beforeAll, expect } from 'vitest';
import { makeSellingMarketplace, putOnSale, signUp, startHarness, type Harness } from './harness.js';

/**
 * Shared by the shop test files: marketplace "shop" (an armchairs subcategory of chairs; 1 EUR = 11.50
 * SEK from 2026-11-21, an older rate that must not count) with five listings on sale by Alice and
 * Bob, a draft and a closed one, and "elsewhere" with a listing of its own.
 */
export type Market = Awaited<ReturnType<typeof makeSellingMarketplace>>;
type Method = 'GET' | 'PUT' | 'POST' | 'DELETE';
export type SearchPage = { items: { id: string; title: string; display_price?: { amount: number; currency: string }; favorited?: boolean; favorite_count: number }[]; next_cursor?: string; total: number };

export interface ShopSuite {
  h: Harness;
  m: Market;
  other: Market;
  /** sessions of the two sellers, and Alice's user id */
  alice: string;
  bob: string;
  aliceId: string;
  /** on sale in "shop": cafe, ecole, lounge, lamp, stool; closed; foreign (in "elsewhere") */
  L: Record<string, string>;
  call(method: Method, url: string, opts?: { session?: string; payload?: unknown; key?: string }): ReturnType<Harness['request']>;
  /** A listing put on sale by `session`; each a second after the previous, so "newest" is well defined. */
  onSale(session: string, content: Record<string, unknown>, market?: Market): Promise<string>;
  search(query: string, session?: string): Promise<SearchPage>;
  /** the titles a search finds, in order */
  ids(query: string): Promise<string[]>;
}

/** Registers the harness's beforeAll/afterAll; the fields are filled before the first test. */
export function shopSuite(): ShopSuite {
  const s = { L: {} } as ShopSuite;
  s.call = (method, url, opts = {}) => s.h.request({ method, url, key: opts.key ?? s.m.secret, session: opts.session, ...(opts.payload !== undefined ? { payload: opts.payload as object } : {}) });
  s.onSale = (session, content, market = s.m) => putOnSale(s.h, market.secret, session, content);
  s.search = async (query, session) => {
    const res = await s.call('GET', `/v1/listings${query ? `?${query}` : ''}`, { session });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as SearchPage;
  };
  s.ids = async (query) => (await s.search(query)).items.map((i) => i.title);

  beforeAll(async () => {
    const h = (s.h = await startHarness());
    const m = (s.m = await makeSellingMarketplace(h, 'shop', { min_images: 0 }));
    s.other = await makeSellingMarketplace(h, 'elsewhere', { min_images: 0 });
    await h.console.categories.import({ marketplace: 'shop', items: [{ slug: 'armchairs', names: { en: 'Armchairs' }, parent: 'chairs', position: 1 }] });
    m.category.armchairs = (await s.call('GET', '/v1/categories')).json().items.find((c: { slug: string }) => c.slug === 'armchairs').id;
    // 1 EUR = 11.50 SEK from yesterday; an older rate must not count
    await h.console.rates.set({ marketplace: 'shop', date: '2026-01-01', base: 'EUR', rates: { SEK: 20 } });
    await h.console.rates.set({ marketplace: 'shop', date: '2026-11-21', base: 'EUR', rates: { SEK: 11.5 } });
    await h.runJobs();
    const a = await signUp(h, m.secret, { email: 'alice@example.com', password: 'alice password', display_name: 'Alice Antiques' });
    const alice = (s.alice = a.token);
    s.aliceId = a.user.id;
    const bob = (s.bob = (await signUp(h, m.secret, { email: 'bob@example.com' })).token);

    const { L, onSale } = s;
    L.cafe = await onSale(alice, { title: 'Café table', description: 'Round, oak.', category_id: m.category.tables, price: { amount: 150000, currency: 'SEK' }, attributes: { condition: 'good' } });
    L.ecole = await onSale(alice, { title: 'School chair', description: 'Stackable.', terms: { brand: m.brand.ecole, color: m.color.red }, category_id: m.category.chairs, price: { amount: 10000, currency: 'EUR' }, attributes: { condition: 'worn' } });
    L.lounge = await onSale(bob, { title: 'Lounge chair', description: 'Like a café seat, deep.', terms: { brand: m.brand.artek }, category_id: m.category.armchairs, price: { amount: 120000, currency: 'SEK' }, attributes: { condition: 'new' } });
    L.lamp = await onSale(bob, { title: 'Ekström lamp', description: 'Brass.', terms: { brand: m.brand.ekstrom }, category_id: m.category.lighting, price: { amount: 5000, currency: 'EUR' } });
    L.stool = await onSale(alice, { title: 'Bar stool', description: 'For the cafeteria counter.', terms: { brand: m.brand.artek, color: m.color.red }, category_id: m.category.chairs, price: { amount: 90000, currency: 'SEK' }, attributes: { condition: 'good' } });
    // not on sale: a draft, a closed listing, another marketplace's
    await h.request({ method: 'POST', url: '/v1/me/listings', key: m.secret, session: alice, payload: { title: 'Draft café sofa' } });
    L.closed = await onSale(alice, { title: 'Closed café bench' });
    await s.call('POST', `/v1/me/listings/${L.closed}/close`, { session: alice });
    const elsewhere = (await signUp(h, s.other.secret, { email: 'carl@example.com' })).token;
    L.foreign = await onSale(elsewhere, { title: 'Foreign café chair' }, s.other);
  });
  afterAll(() => s.h.close());
  return s;
}
