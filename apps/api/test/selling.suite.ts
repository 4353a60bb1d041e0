import { afterAll, beforeAll, expect } from 'vitest';
import { jpeg, makeSellingMarketplace, signUp, startHarness, uploadPhoto, type Harness, type HarnessOptions } from './harness.js';

/**
 * Shared by the selling test files. Marketplace "open": no approval, everything checked (category,
 * a brand, attributes against a schema). "curated": approval and valuations on, a shipping table.
 */
export type Market = Awaited<ReturnType<typeof makeSellingMarketplace>>;
export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

const ATTRIBUTES_SCHEMA = {
  type: 'object',
  properties: { condition: { enum: ['new', 'good', 'worn'] }, year: { type: 'integer', minimum: 1800 } },
  required: ['condition'],
};

export interface SellingSuite {
  h: Harness;
  open: Market;
  curated: Market;
  /** sessions: two sellers in `open`, one in `curated` */
  seller: string;
  other: string;
  curator: string;
  photo: Buffer;
  /** calls as a seller of a marketplace */
  as(m: Market, session: string): (method: Method, url: string, payload?: unknown) => ReturnType<Harness['request']>;
  /** content that passes every publish check of `open` */
  complete(m: Market): Record<string, unknown> & { terms: Record<string, string>; price: { amount: number; currency: string } };
  /** a draft with content and one processed photo */
  draftWithPhoto(m: Market, session: string, content: Record<string, unknown>): Promise<string>;
  publish(m: Market, session: string, id: string, body?: Record<string, unknown>): ReturnType<Harness['request']>;
}

/** Registers the harness's beforeAll/afterAll; the fields are filled before the first test. */
export function sellingSuite(harness: HarnessOptions = {}): SellingSuite {
  let n = 0;
  const s = {} as SellingSuite;
  s.as = (m, session) => (method, url, payload) => s.h.request({ method, url, key: m.secret, session, ...(payload !== undefined ? { payload: payload as object } : {}) });
  s.complete = (m) => ({
    title: `Armchair ${++n}`,
    description: 'Oak and wool, 1962.',
    price: { amount: 250000, currency: 'SEK' },
    category_id: m.category.chairs,
    terms: { brand: m.brand.artek!, color: m.color.red! },
    attributes: { condition: 'good', year: 1962 },
    location: { city: 'Stockholm', country: 'SE', postal_code: '11646' },
    delivery: { pickup: true, shipping: { price: 9900, additional_item_price: 0 } },
    stock: 1,
  });
  s.draftWithPhoto = async (m, session, content) => {
    const res = await s.as(m, session)('POST', '/v1/me/listings', content);
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().id as string;
    expect((await uploadPhoto(s.h, m.secret, session, id, s.photo)).statusCode).toBe(202);
    await s.h.runJobs();
    return id;
  };
  s.publish = (m, session, id, body = {}) => s.as(m, session)('POST', `/v1/me/listings/${id}/publish`, body);
  beforeAll(async () => {
    s.h = await startHarness(harness);
    s.open = await makeSellingMarketplace(s.h, 'open', { min_images: 1, require_category: true, required_terms: ['brand'], attributes_schema: ATTRIBUTES_SCHEMA });
    s.curated = await makeSellingMarketplace(
    s.h,
    'curated',
    { min_images: 1, require_approval: true, valuations: true },
    { currency: 'SEK', sizes: [{ key: 'small', name: 'Small' }], zones: [{ key: 'se', name: 'Sweden', countries: ['SE'] }] },
    );
    s.seller = (await signUp(s.h, s.open.secret, { email: 'seller@example.com', first_name: 'Sam', locale: 'sv' })).token;
    s.other = (await signUp(s.h, s.open.secret, { email: 'other@example.com' })).token;
    s.curator = (await signUp(s.h, s.curated.secret, { email: 'cur@example.com', first_name: 'Cu' })).token;
    s.photo = await jpeg(1200, 900);
  });
  afterAll(() => s.h.close());
  return s;
}
