import { afterAll, beforeAll, expect } from 'vitest';
import { makeMarketplace, signUp, startHarness, type Harness, type HarnessOptions } from './harness.js';

/**
 * Shared by the order test files. Marketplace "shop" prices shipping from its table (sizes, zones
 * with postal prefixes, two options, booking for Stockholm); "own" has no table, so its listings
 * price their own shipping. Both sell in SEK and EUR (1 EUR = 11.5 SEK from 2026-11-01).
 */
export type Market = Awaited<ReturnType<typeof makeMarketplace>> & { slug: string };
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export interface Person {
  token: string;
  id: string;
  email: string;
}

export const SHIPPING = {
  currency: 'SEK',
  sizes: [
    { key: 'small', name: 'Small parcel' },
    { key: 'large', name: 'Furniture' },
  ],
  zones: [
    { key: 'se', name: 'Sweden', countries: ['SE'] },
    { key: 'sthlm', name: 'Stockholm', countries: ['SE'], postal_prefixes: ['1'] },
    { key: 'nordic', name: 'Nordics', countries: ['NO', 'DK', 'FI'] },
  ],
  options: [
    { key: 'standard', name: 'Standard delivery' },
    { key: 'express', name: 'Express' },
  ],
  delivery: { standard: { small: { se: 4900, sthlm: 3900, nordic: 9900 }, large: { sthlm: 49900 } }, express: { small: { sthlm: 7900 } } },
  booking: {
    horizon_days: 14,
    lead_days: 2,
    per_window: 2,
    time_zone: 'Europe/Stockholm',
    weekdays: [1, 2, 3, 4, 5],
    windows: [
      { key: 'am', label: '08–12' },
      { key: 'pm', label: '13–17' },
    ],
    zones: ['sthlm'],
  },
};

export const STOCKHOLM = { country: 'SE', postal_code: '116 46', name: 'Bo Buyer', line1: 'Götgatan 1', city: 'Stockholm' };
export const GOTHENBURG = { country: 'SE', postal_code: '411 01', city: 'Göteborg' };

export interface OrdersSuite {
  h: Harness;
  shop: Market;
  own: Market;
  /** in `shop`: a seller (en), two buyers (sv, de); in `own`: a seller and a buyer */
  seller: Person;
  buyer: Person;
  buyer2: Person;
  ownSeller: Person;
  ownBuyer: Person;
  call(m: Market, who: Person | undefined, method: Method, url: string, payload?: unknown): ReturnType<Harness['request']>;
  /** a listing on sale: content merged over a complete default; `size` (default small with shipping in `shop`) is set by the team before publishing */
  listing(m: Market, seller: Person, content?: Record<string, unknown>, size?: string): Promise<string>;
  place(m: Market, buyer: Person, body: Record<string, unknown>): ReturnType<Harness['request']>;
  quote(m: Market, buyer: Person, body: Record<string, unknown>): ReturnType<Harness['request']>;
  /** places (201 expected) and returns the order and its client secret */
  placed(m: Market, buyer: Person, body: Record<string, unknown>): Promise<{ order: Record<string, any>; secret: string }>; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** the buyer pays in the sandbox; the provider's event reaches the order through the jobs */
  pay(m: Market, secret: string, outcome?: 'succeeded' | 'failed'): Promise<void>;
  /** a placed and paid order (purchased) */
  purchased(m: Market, buyer: Person, body: Record<string, unknown>): Promise<string>;
  advance(m: Market, until: Date | string): Promise<{ task: string; run_at: string; result: string }[]>;
  get(m: Market, who: Person, id: string): Promise<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any
  move(m: Market, who: Person, id: string, transition: string, data?: Record<string, string>): ReturnType<Harness['request']>;
}

let n = 0;
/** A Monday, 10:00 in Stockholm; far ahead of the machine's real time (see beforeAll). */
export const START = '2031-03-03T09:00:00.000Z';

export function ordersSuite(harness: HarnessOptions = {}): OrdersSuite {
  const s = {} as OrdersSuite;
  s.call = (m, who, method, url, payload) => s.h.request({ method, url, key: m.secret, ...(who ? { session: who.token } : {}), ...(payload !== undefined ? { payload: payload as object } : {}) });
  s.listing = async (m, seller, content = {}, size) => {
    const body = {
      title: `Lamp ${++n}`,
      description: 'Brass, 1950s.',
      price: { amount: 100000, currency: 'SEK' },
      location: { city: 'Stockholm', country: 'SE', postal_code: '11646' },
      delivery: { pickup: true, shipping: m.slug === 'own' ? { price: 9900, additional_item_price: 2000 } : {} },
      stock: 1,
      ...content,
    };
    const created = await s.call(m, seller, 'POST', '/v1/me/listings', body);
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    // shipping from the table needs the team's size before it can go on sale
    const sized = size ?? (m.slug === 'shop' && (body.delivery as { shipping?: object }).shipping ? 'small' : undefined);
    if (sized) await s.h.console.listings.setShippingSize({ id, size: sized });
    const published = await s.call(m, seller, 'POST', `/v1/me/listings/${id}/publish`, {});
    expect(published.statusCode, published.body).toBe(200);
    expect(published.json().status).toBe('published');
    return id;
  };
  s.place = (m, buyer, body) => s.call(m, buyer, 'POST', '/v1/me/orders', body);
  s.quote = (m, buyer, body) => s.call(m, buyer, 'POST', '/v1/me/orders/quote', body);
  s.placed = async (m, buyer, body) => {
    const res = await s.place(m, buyer, body);
    expect(res.statusCode, res.body).toBe(201);
    return { order: res.json().order, secret: res.json().payment.client_secret };
  };
  s.pay = async (m, secret, outcome = 'succeeded') => {
    const res = await s.h.request({ method: 'POST', url: '/v1/test-helpers/payments/confirm', key: m.secret, payload: { client_secret: secret, outcome } });
    expect(res.statusCode, res.body).toBe(200);
    await s.h.runJobs(); // handle-payment-event → confirm-payment
    await s.h.runJobs();
  };
  s.purchased = async (m, buyer, body) => {
    const { order, secret } = await s.placed(m, buyer, body);
    await s.pay(m, secret);
    expect((await s.get(m, buyer, order.id)).state).toBe('purchased');
    return order.id;
  };
  s.advance = async (m, until) => {
    const res = await s.h.request({ method: 'POST', url: '/v1/test-helpers/timers/advance', key: m.secret, payload: { until: new Date(until).toISOString() } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().ran;
  };
  s.get = async (m, who, id) => {
    const res = await s.call(m, who, 'GET', `/v1/me/orders/${id}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  s.move = (m, who, id, transition, data) => s.call(m, who, 'POST', `/v1/me/orders/${id}/transitions/${transition}`, data ? { data } : {});

  const person = async (m: Market, email: string, locale: string): Promise<Person> => {
    const { token, user } = await signUp(s.h, m.secret, { email, first_name: email.split('@')[0], locale });
    return { token, id: user.id, email };
  };
  const market = async (slug: string, shipping?: object): Promise<Market> => {
    const m = await makeMarketplace(s.h, slug, { currencies: ['SEK', 'EUR'], locales: ['en', 'sv', 'de'] });
    await s.h.console.marketplace.update({
      marketplace: slug,
      settings: {
        listings: { min_images: 0, require_approval: false, require_category: false, required_terms: [], valuations: false },
        ...(shipping ? { shipping: shipping as never } : {}),
        // these suites place many orders per buyer and leave them unpaid; the cap has its own test (abuse-limits.e2e.test.ts)
        abuse_limits: { pending_orders_per_buyer: 100 },
      },
    });
    await s.h.console.rates.set({ marketplace: slug, date: '2026-11-01', base: 'EUR', rates: { SEK: 11.5 } });
    return { ...m, slug };
  };

  beforeAll(async () => {
    s.h = await startHarness(harness);
    // Order timers are scheduled from the app's clock; the job worker runs what is due by the
    // database's clock. A test clock ahead of the real one keeps timers for the timers test helper.
    s.h.clock.set(START);
    s.shop = await market('shop', SHIPPING);
    s.own = await market('own');
    s.seller = await person(s.shop, 'seller@example.com', 'en');
    s.buyer = await person(s.shop, 'buyer@example.com', 'sv');
    s.buyer2 = await person(s.shop, 'buyer2@example.com', 'de');
    s.ownSeller = await person(s.own, 'own-seller@example.com', 'en');
    s.ownBuyer = await person(s.own, 'own-buyer@example.com', 'en');
  });
  afterAll(() => s.h.close());
  return s;
}
