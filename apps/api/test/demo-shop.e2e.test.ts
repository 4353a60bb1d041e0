import sharp from 'sharp';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { seedDemo } from '@hm/domain/demo';
import { seedDemoShop } from '@hm/domain/demo-shop';
import { sizeKey } from '@hm/domain/images';
import { startWorker, type Worker } from '@hm/jobs/worker';
import { startHarness, type Harness } from './harness.js';

/**
 * The demo shop at its full default size, seeded by the function `npm start` runs, with a real job
 * worker making the photos' sizes: what a developer sees in the shop afterwards, read through the API.
 */
let h: Harness;
let worker: Worker;
let secret: string;
const logins = { buyer: { email: 'buyer@demo.example', password: 'buyer password 1' }, seller: { email: 'seller@demo.example', password: 'seller password 1' } };
const lines: string[] = [];

interface ShopListing {
  id: string;
  seller_id: string;
  title: string;
  description: string;
  locale: string;
  category_id?: string;
  terms: Record<string, { slug: string }>;
  price?: { currency: string };
  price_schedule?: { on?: string }[];
  images: { status: string; urls?: { medium: string } }[];
  custody: string;
  site?: { kind: string };
  favorite_count: number;
  attributes: Record<string, unknown>;
  delivery: Record<string, unknown>;
  shipping_size?: string;
}

beforeAll(async () => {
  h = await startHarness();
  ({ secret } = (await seedDemo(h.orm, { mode: 'test', storefrontUrl: 'https://demo.example', today: '2026-11-22' })).keys);
  worker = await startWorker({ connectionString: h.databaseUrl, concurrency: 2, deps: { orm: h.orm, mode: 'test', mailFrom: 'no-reply@demo.example', ports: h.ports } });
}, 60_000);
afterAll(async () => {
  await worker?.stop();
  await h?.close();
});

async function allOnSale(): Promise<{ items: ShopListing[]; total: number }> {
  const items: ShopListing[] = [];
  let cursor: string | undefined;
  let total: number;
  do {
    const res = await h.request({ method: 'GET', url: `/v1/listings?limit=100${cursor ? `&cursor=${cursor}` : ''}`, key: secret });
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json();
    items.push(...page.items);
    total = page.total;
    cursor = page.next_cursor;
  } while (cursor);
  return { items, total };
}

test('the full demo: 120 listings on sale in every category and both currencies, each with processed photos', async () => {
  const result = await seedDemoShop({ orm: h.orm, ports: h.ports }, { logins, log: (l) => lines.push(l) });
  expect(result).toMatchObject({ listings: 120, onSale: 120, complete: true });
  expect(lines.at(-1)).toMatch(/^Demo shop ready: 120 listings on sale \(\d+ s\)\.$/);
  expect(lines.some((l) => /Demo shop: 60\/120 listings on sale/.test(l))).toBe(true);

  const { items, total } = await allOnSale();
  expect(total).toBe(120);
  expect(new Set(items.map((l) => `${l.seller_id}:${l.title}`)).size).toBe(120);
  const categories = (await h.request({ method: 'GET', url: '/v1/categories', key: secret })).json().items as { id: string }[];
  expect(new Set(items.map((l) => l.category_id))).toEqual(new Set(categories.map((c) => c.id)));
  expect(new Set(items.map((l) => l.price?.currency))).toEqual(new Set(['SEK', 'EUR']));
  expect(new Set(items.map((l) => l.locale))).toEqual(new Set(['en', 'sv']));
  for (const l of items) {
    expect(Object.keys(l.terms).sort(), l.title).toEqual(['brand', 'condition']);
    expect(l.images.length, l.title).toBeGreaterThanOrEqual(1);
    expect(l.images.length, l.title).toBeLessThanOrEqual(4);
    expect(l.images.every((i) => i.status === 'ready' && i.urls), l.title).toBe(true);
    expect(l.description.length, l.title).toBeGreaterThan(60);
    expect(l.attributes).toHaveProperty('material');
    expect(Object.keys(l.delivery).length, l.title).toBeGreaterThan(0);
    if (l.delivery.shipping) expect(l.shipping_size, l.title).toMatch(/^(small|large)$/);
  }
  const stored = items.filter((l) => l.custody === 'stored');
  expect(stored.length).toBeGreaterThanOrEqual(5);
  expect(stored.every((l) => l.site?.kind === 'showroom')).toBe(true);
  expect(items.filter((l) => l.price_schedule?.length && l.price_schedule.every((s) => s.on)).length).toBeGreaterThanOrEqual(5);
  expect(items.filter((l) => l.favorite_count > 0).length).toBeGreaterThanOrEqual(20);
  const photos = items.reduce((n, l) => n + l.images.length, 0);
  expect(photos).toBeGreaterThan(200);

  // A Swedish seller's listing reads in Swedish, an English one's in English.
  expect(items.find((l) => l.locale === 'sv')!.description).toMatch(/skick|Mått/);
  expect(items.find((l) => l.locale === 'en')!.description).toMatch(/condition|Size|As new|Worn/i);

  // The photos are real pictures (the process-image job's JPEGs), not blank frames: several colours.
  const image = items[0]!.images[0]!;
  const id = image.urls!.medium.split('/').at(-2)!;
  const medium = await h.images.get(sizeKey(id, 'medium'));
  const stats = await sharp(medium!.body).stats();
  expect(stats.channels.some((c) => c.stdev > 10)).toBe(true);
  expect((await sharp(medium!.body).metadata()).width).toBe(800);
}, 600_000);

test('the demo accounts sign in; the demo seller owns listings and the demo buyer has favourites', async () => {
  const signIn = async (who: { email: string; password: string }) => {
    const res = await h.request({ method: 'POST', url: '/v1/sessions', key: secret, payload: who });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { session: { token: string }; user: { email_verified: boolean } };
  };
  const seller = await signIn(logins.seller);
  expect(seller.user.email_verified).toBe(true);
  const mine = await h.request({ method: 'GET', url: '/v1/me/listings?limit=100', key: secret, session: seller.session.token });
  expect(mine.json().items.length).toBeGreaterThanOrEqual(10);
  const buyer = await signIn(logins.buyer);
  expect(buyer.user.email_verified).toBe(true);
  const saved = await h.request({ method: 'GET', url: '/v1/me/favorites', key: secret, session: buyer.session.token });
  expect(saved.json().total).toBeGreaterThanOrEqual(5);
});

test('seeding again finds every listing and adds nothing', async () => {
  const before = await allOnSale();
  const again = await seedDemoShop({ orm: h.orm, ports: h.ports }, { logins });
  expect(again).toMatchObject({ listings: 120, onSale: 120, complete: true });
  const after = await allOnSale();
  expect(after.total).toBe(120);
  expect(after.items.map((l) => [l.id, l.images.length, l.favorite_count])).toEqual(before.items.map((l) => [l.id, l.images.length, l.favorite_count]));
}, 120_000);

test('the demo shop as a new user searches it (issue 28): compound words, typos, a suggestion, facets', async () => {
  const search = async (query: string) => {
    const res = await h.request({ method: 'GET', url: `/v1/listings?limit=100&${query}`, key: secret });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { items: ShopListing[]; total: number; did_you_mean?: string; facets?: { terms: Record<string, { slug: string; count: number }[]> } };
  };
  const { items } = await allOnSale();
  const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  // every title with a word containing "lampa" (taklampa, golvlampa, bordslampa…) is found, those with "lampa" itself first
  const lampTitles = items.filter((l) => /lampa/.test(fold(l.title))).map((l) => l.title);
  expect(lampTitles.length).toBeGreaterThan(10);
  const lampa = await search('q=lampa');
  expect(lampa.items.map((l) => l.title)).toEqual(expect.arrayContaining(lampTitles));
  // chiar: the chair titles
  const chairTitles = items.filter((l) => /\bchairs?\b/.test(fold(l.title))).map((l) => l.title);
  expect(chairTitles.length).toBeGreaterThan(0);
  expect((await search('q=chiar')).items.map((l) => l.title)).toEqual(expect.arrayContaining(chairTitles));
  // a 4-letter word one letter off finds nothing itself, and says what would
  const page = await search('q=sofx');
  expect(page.total).toBe(0);
  expect(page.did_you_mean).toBeDefined();
  expect((await search(`q=${encodeURIComponent(page.did_you_mean!)}`)).total).toBeGreaterThan(0);
  // facets: brand counts add up to the listings with a brand
  const withBrand = items.filter((l) => l.terms.brand).length;
  const facets = (await search('facets=term:brand')).facets!;
  expect(facets.terms.brand!.reduce((a, b) => a + b.count, 0)).toBe(withBrand);
});
