import { afterAll, beforeAll, expect } from 'vitest';
import { jpeg, makeSellingMarketplace, signUp, startHarness, type Harness } from './harness.js';

/** The content pages tests' world: two marketplaces, listings on sale (one closed), media, another marketplace's ids, and a home page with every block type. */
export let h: Harness;
export type Market = Awaited<ReturnType<typeof makeSellingMarketplace>>;
export let m: Market;
export let other: Market;
export let seller: string;
export const L: Record<string, string> = {};
export const I: Record<string, string> = {};
export let foreign: { listing: string; image: string; category: string; site: string };

export type Block = Record<string, unknown> & { id: string; type: string };
export type PageJson = { slug: string; title: string; description: string; locale: string; blocks: (Block & { listings?: { id: string; display_price?: { amount: number; currency: string } }[] })[]; published_at?: string; share_image?: { id: string } };

export const get = (url: string, key = m.secret) => h.request({ method: 'GET', url, key });
export const page = async (url: string, key = m.secret) => {
  const res = await get(url, key);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as PageJson;
};
export const blockOf = (p: PageJson, id: string) => p.blocks.find((b) => b.id === id);

export async function onSale(session: string, content: Record<string, unknown>, market = m) {
  h.clock.advance(1000);
  const created = await h.request({ method: 'POST', url: '/v1/me/listings', key: market.secret, session, payload: { location: { country: 'SE' }, delivery: { pickup: true }, price: { amount: 10000, currency: 'SEK' }, description: 'Nice.', ...content } });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().id as string;
  const pub = await h.request({ method: 'POST', url: `/v1/me/listings/${id}/publish`, key: market.secret, session, payload: {} });
  expect(pub.json().status, pub.body).toBe('published');
  return id;
}

export async function put(slug: string, locale: string, body: Record<string, unknown>, market = 'shop') {
  return h.console.pages.put({ marketplace: market, slug, locale, page: body });
}

/** The console's answer to a refused put: every problem's location. */
export async function problems(body: Record<string, unknown>, slug = 'checks', locale = 'en'): Promise<{ location: string; message: string }[]> {
  try {
    await put(slug, locale, body);
  } catch (e) {
    const problem = (e as { cause?: { errors?: { location: string; message: string }[] } }).cause;
    expect(problem?.errors, String(e)).toBeDefined();
    return problem!.errors!;
  }
  throw new Error('the put was accepted');
}
export const locations = async (body: Record<string, unknown>) => (await problems(body)).map((p) => p.location).sort();

export const everyBlock = (): Block[] => [
  { id: 'hero', type: 'hero', eyebrow: 'Since 1962', heading: 'Second-hand design', text: 'Checked by us.', visual: 'image', image_id: I.wide, search: true, buttons: [{ label: 'Browse', href: '/en/search', style: 'primary' }] },
  { id: 'links', type: 'links', links: [{ label: 'Chairs', href: '/en/c/chairs' }, { label: 'Journal', href: 'https://journal.example/' }] },
  { id: 'newest', type: 'listing_grid', heading: 'Newest chairs', source: 'rule', rule: { category_id: m.category.furniture, sort: 'newest' }, limit: 2, link: { label: 'All furniture', href: '/en/c/furniture' } },
  { id: 'picked', type: 'listing_grid', heading: 'Picked', source: 'picked', listing_ids: [L.lamp, L.sold, L.stool] },
  { id: 'banner', type: 'banner', heading: 'Autumn sale', text: 'Up to 30 % off.', image_id: I.wide, phone_image_id: I.small, link: { label: 'Shop now', href: '/en/search?sort=price_asc' } },
  { id: 'tiles', type: 'category_tiles', heading: 'Rooms', tiles: [{ category_id: m.category.chairs, image_id: I.small }, { category_id: m.category.lighting, label: 'Lamps' }] },
  { id: 'story', type: 'image_text', eyebrow: 'About', heading: 'Our workshop', text: 'We restore.', image_id: I.small, image_side: 'right', link: { label: 'Read more', href: '/en/pages/about' } },
  { id: 'feature', type: 'featured_listing', heading: 'Pick of the week', text: 'A classic.', listing_id: L.chair, when_sold: 'hide' },
  { id: 'cta', type: 'cta', heading: 'Sell with us', text: 'We collect.', tone: 'dark', buttons: [{ label: 'Start selling', href: '/en/account/listings/new' }] },
  { id: 'news', type: 'newsletter', heading: 'Letters', text: 'Monthly.', button_label: 'Sign up' },
  { id: 'promises', type: 'promises', items: [{ title: 'Checked', text: 'Every item.' }, { title: 'Returns' }] },
  { id: 'showroom', type: 'showroom', heading: 'Visit', text: 'Come by.', location_id: m.siteId },
  { id: 'text', type: 'text', body: '## Hello\n\nPlain *markdown*.' },
  { id: 'faq', type: 'faq', heading: 'Questions', questions: [{ question: 'Do you ship?', answer: 'Yes.' }] },
];

/** Starts the harness and builds the world before a test file's tests; closes it after. */
export function pagesSuite() {
beforeAll(async () => {
  h = await startHarness();
  m = await makeSellingMarketplace(h, 'shop', { min_images: 0 });
  other = await makeSellingMarketplace(h, 'elsewhere', { min_images: 0 });
  await h.console.rates.set({ marketplace: 'shop', date: '2026-11-21', base: 'EUR', rates: { SEK: 11.5 } });
  await h.runJobs();
  seller = (await signUp(h, m.secret, { email: 'seller@example.com' })).token;
  L.chair = await onSale(seller, { title: 'Chair', category_id: m.category.chairs, price: { amount: 115000, currency: 'SEK' } });
  L.table = await onSale(seller, { title: 'Table', category_id: m.category.tables });
  L.lamp = await onSale(seller, { title: 'Lamp', category_id: m.category.lighting, price: { amount: 5000, currency: 'EUR' } });
  L.sold = await onSale(seller, { title: 'Sold stool', category_id: m.category.chairs });
  L.stool = await onSale(seller, { title: 'Stool', category_id: m.category.chairs, price: { amount: 23000, currency: 'SEK' } });
  await h.request({ method: 'POST', url: `/v1/me/listings/${L.sold}/close`, key: m.secret, session: seller });
  I.wide = (await h.console.media.upload({ marketplace: 'shop', file: await jpeg(3000, 2000), alt: 'A wide room' })).image.id;
  I.small = (await h.console.media.upload({ marketplace: 'shop', file: await jpeg(500, 300), alt: 'A small chair' })).image.id;
  const otherSeller = (await signUp(h, other.secret, { email: 'carl@example.com' })).token;
  foreign = {
    listing: await onSale(otherSeller, { title: 'Foreign chair' }, other),
    image: (await h.console.media.upload({ marketplace: 'elsewhere', file: await jpeg(400, 400), alt: 'Elsewhere' })).image.id,
    category: other.category.chairs!,
    site: other.siteId,
  };
  await put('home', 'en', { title: 'Home', description: 'The front page.', share_image_id: I.wide, blocks: everyBlock() });
});
afterAll(() => h?.close());
}
