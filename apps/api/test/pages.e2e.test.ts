import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { seedDemo } from '@hm/domain/demo';
import { ensureDemoPages } from '@hm/domain/demo-pages';
import { jpeg, makeSellingMarketplace, signUp, startHarness, type Harness } from './harness.js';

/** Content pages and media: live blocks, drafts and previews, locales, currencies, validation, tenancy. */
let h: Harness;
type Market = Awaited<ReturnType<typeof makeSellingMarketplace>>;
let m: Market;
let other: Market;
let seller: string;
const L: Record<string, string> = {};
const I: Record<string, string> = {};
let foreign: { listing: string; image: string; category: string; site: string };

type Block = Record<string, unknown> & { id: string; type: string };
type PageJson = { slug: string; title: string; description: string; locale: string; blocks: (Block & { listings?: { id: string; display_price?: { amount: number; currency: string } }[] })[]; published_at?: string; share_image?: { id: string } };

const get = (url: string, key = m.secret) => h.request({ method: 'GET', url, key });
const page = async (url: string, key = m.secret) => {
  const res = await get(url, key);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as PageJson;
};
const blockOf = (p: PageJson, id: string) => p.blocks.find((b) => b.id === id);

async function onSale(session: string, content: Record<string, unknown>, market = m) {
  h.clock.advance(1000);
  const created = await h.request({ method: 'POST', url: '/v1/me/listings', key: market.secret, session, payload: { location: { country: 'SE' }, delivery: { pickup: true }, price: { amount: 10000, currency: 'SEK' }, description: 'Nice.', ...content } });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().id as string;
  const pub = await h.request({ method: 'POST', url: `/v1/me/listings/${id}/publish`, key: market.secret, session, payload: {} });
  expect(pub.json().status, pub.body).toBe('published');
  return id;
}

async function put(slug: string, locale: string, body: Record<string, unknown>, market = 'shop') {
  return h.console.pages.put({ marketplace: market, slug, locale, page: body });
}

/** The console's answer to a refused put: every problem's location. */
async function problems(body: Record<string, unknown>, slug = 'checks', locale = 'en'): Promise<{ location: string; message: string }[]> {
  try {
    await put(slug, locale, body);
  } catch (e) {
    const problem = (e as { cause?: { errors?: { location: string; message: string }[] } }).cause;
    expect(problem?.errors, String(e)).toBeDefined();
    return problem!.errors!;
  }
  throw new Error('the put was accepted');
}
const locations = async (body: Record<string, unknown>) => (await problems(body)).map((p) => p.location).sort();

const everyBlock = (): Block[] => [
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

describe('publishing', () => {
  test('404 before publishing and for unknown slugs; the list is empty', async () => {
    expect((await get('/v1/pages/home')).statusCode).toBe(404);
    expect((await get('/v1/pages/nope')).statusCode).toBe(404);
    expect((await get('/v1/pages')).json().items).toEqual([]);
  });

  test('published: listed, readable with secret and publishable keys; unpublished: 404 again', async () => {
    h.clock.set('2026-11-22T12:00:00.000Z');
    await h.console.pages.publish({ marketplace: 'shop', slug: 'home', locale: 'en' });
    const list = (await page('/v1/pages')) as unknown as { items: unknown[] };
    expect(list.items).toEqual([{ slug: 'home', locale: 'en', published_at: '2026-11-22T12:00:00.000Z' }]);
    const p = await page('/v1/pages/home', m.publishable);
    expect(p).toMatchObject({ slug: 'home', title: 'Home', description: 'The front page.', locale: 'en', published_at: '2026-11-22T12:00:00.000Z', share_image: { id: I.wide, alt: 'A wide room' } });
    await h.console.pages.unpublish({ marketplace: 'shop', slug: 'home', locale: 'en' });
    expect((await get('/v1/pages/home')).statusCode).toBe(404);
    await h.console.pages.publish({ marketplace: 'shop', slug: 'home', locale: 'en' });
  });
});

describe('live blocks', () => {
  test('every block type is filled', async () => {
    const p = await page('/v1/pages/home');
    expect(p.blocks.map((b) => b.type)).toEqual(['hero', 'links', 'listing_grid', 'listing_grid', 'banner', 'category_tiles', 'image_text', 'featured_listing', 'cta', 'newsletter', 'promises', 'showroom', 'text', 'faq']);
    const hero = blockOf(p, 'hero')!;
    expect(hero).toMatchObject({ heading: 'Second-hand design', eyebrow: 'Since 1962', search: true, visual: 'image', image: { id: I.wide, width: 3000, height: 2000 } });
    expect((hero.image as { urls: Record<string, string> }).urls).toEqual({
      thumb: `http://localhost:4000/v1/media/${I.wide}/thumb.jpg`,
      medium: `http://localhost:4000/v1/media/${I.wide}/medium.jpg`,
      large: `http://localhost:4000/v1/media/${I.wide}/large.jpg`,
      xlarge: `http://localhost:4000/v1/media/${I.wide}/xlarge.jpg`,
    });
    // rule: the furniture subtree (chairs, tables), newest first, up to the limit; the lamp is lighting
    expect(blockOf(p, 'newest')!.listings!.map((l) => l.id)).toEqual([L.stool, L.table]);
    // picked: in the editor's order, the sold one left out
    expect(blockOf(p, 'picked')!.listings!.map((l) => l.id)).toEqual([L.lamp, L.stool]);
    expect(blockOf(p, 'banner')).toMatchObject({ image: { id: I.wide }, phone_image: { id: I.small, width: 500, height: 300 } });
    expect(blockOf(p, 'tiles')!.tiles).toEqual([
      expect.objectContaining({ category_id: m.category.chairs, category: { id: m.category.chairs, name: 'Chairs', slug: 'chairs' }, image: expect.objectContaining({ id: I.small }) }),
      { category_id: m.category.lighting, category: { id: m.category.lighting, name: 'Lighting', slug: 'lighting' }, label: 'Lamps' },
    ]);
    expect(blockOf(p, 'feature')).toMatchObject({ listing: { id: L.chair, title: 'Chair' }, on_sale: true, when_sold: 'hide' });
    expect(blockOf(p, 'showroom')!.location).toEqual({ name: 'Showroom', kind: 'showroom', line1: 'Götgatan 1', postal_code: '11646', city: 'Stockholm', country: 'SE', opening_hours: 'Tue–Sat 11–18', buyer_pickup: true });
    expect(blockOf(p, 'text')).toEqual({ id: 'text', type: 'text', body: '## Hello\n\nPlain *markdown*.' });
    expect(blockOf(p, 'news')).toEqual({ id: 'news', type: 'newsletter', heading: 'Letters', text: 'Monthly.', button_label: 'Sign up' });
    expect(blockOf(p, 'promises')!.items).toEqual([{ title: 'Checked', text: 'Every item.' }, { title: 'Returns' }]);
    expect(blockOf(p, 'faq')!.questions).toEqual([{ question: 'Do you ship?', answer: 'Yes.' }]);
  });

  test('category names in the page language', async () => {
    await put('home', 'sv', { title: 'Hem', description: 'Startsidan.', blocks: [everyBlock()[5]!] });
    await h.console.pages.publish({ marketplace: 'shop', slug: 'home', locale: 'sv' });
    const p = await page('/v1/pages/home?locale=sv');
    expect(p.locale).toBe('sv');
    expect((blockOf(p, 'tiles')!.tiles as { category: { name: string } }[]).map((t) => t.category.name)).toEqual(['Stolar', 'Belysning']);
  });

  test('locale falls back: sv-SE → sv; a language without the page → the default language; unknown → default', async () => {
    expect((await page('/v1/pages/home?locale=sv-SE')).locale).toBe('sv');
    await put('about', 'en', { title: 'About', description: '', blocks: [{ id: 't', type: 'text', body: 'Us.' }] });
    await h.console.pages.publish({ marketplace: 'shop', slug: 'about', locale: 'en' });
    expect(await page('/v1/pages/about?locale=sv')).toMatchObject({ locale: 'en', title: 'About' });
    expect((await page('/v1/pages/home?locale=xx')).locale).toBe('en');
  });

  test('currency: listing prices carry display_price; an unknown currency is 422', async () => {
    const p = await page('/v1/pages/home?currency=EUR');
    const [lamp, stool] = blockOf(p, 'picked')!.listings!;
    expect(lamp!.display_price).toEqual({ amount: 5000, currency: 'EUR' });
    expect(stool!.display_price).toEqual({ amount: 2000, currency: 'EUR' }); // 230.00 SEK / 11.5
    expect((blockOf(p, 'feature')!.listing as { display_price: unknown }).display_price).toEqual({ amount: 10000, currency: 'EUR' });
    expect(blockOf(await page('/v1/pages/home'), 'picked')!.listings![0]!.display_price).toBeUndefined();
    const bad = await get('/v1/pages/home?currency=USD');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors[0].location).toBe('query.currency');
  });

  test('blocks with nothing to show are left out: sold picks, empty rule grid, inactive site, hidden featured listing', async () => {
    const warehouse = (await h.console.sites.create({ marketplace: 'shop', site: { kind: 'warehouse', name: 'Closed store', line1: 'Väg 1', postal_code: '12345', city: 'Solna', country: 'SE', active: false } })).site.id;
    await put('left-out', 'en', {
      title: 'Left out',
      description: '',
      blocks: [
        { id: 'sold', type: 'listing_grid', source: 'picked', listing_ids: [L.sold] },
        { id: 'empty', type: 'listing_grid', source: 'rule', rule: { category_id: m.category.tables, sort: 'price_desc', term_ids: [m.brand.artek] } },
        { id: 'inactive', type: 'showroom', location_id: warehouse },
        { id: 'hidden', type: 'featured_listing', listing_id: L.sold, when_sold: 'hide' },
        { id: 'default-hide', type: 'featured_listing', listing_id: L.sold },
        { id: 'shown', type: 'featured_listing', listing_id: L.sold, when_sold: 'show' },
        { id: 'hero-sold', type: 'hero', heading: 'Still here', visual: 'listing', listing_id: L.sold },
        { id: 'hero-newest', type: 'hero', visual: 'newest' },
        { id: 'hero-empty', type: 'hero', visual: 'image', image_id: I.small },
        { id: 'hero-nothing', type: 'hero', visual: 'none' },
        { id: 'banner-nothing', type: 'banner' },
        { id: 'image-text-nothing', type: 'image_text', image_side: 'left' },
        { id: 'cta-nothing', type: 'cta', tone: 'dark', buttons: [] },
      ],
    });
    await h.console.pages.publish({ marketplace: 'shop', slug: 'left-out', locale: 'en' });
    const p = await page('/v1/pages/left-out');
    expect(p.blocks.map((b) => b.id)).toEqual(['shown', 'hero-sold', 'hero-newest', 'hero-empty']);
    expect(blockOf(p, 'shown')).toMatchObject({ on_sale: false, listing: { id: L.sold, status: 'closed' } });
    expect(blockOf(p, 'hero-sold')).toEqual({ id: 'hero-sold', type: 'hero', heading: 'Still here', visual: 'listing', listing_id: L.sold });
    expect(blockOf(p, 'hero-newest')).toMatchObject({ listing: { id: L.stool } });
    expect(blockOf(p, 'hero-empty')).toMatchObject({ image: { id: I.small } });
  });

  test('a page read costs the same number of SQL statements whatever its number of blocks', async () => {
    const count = async (url: string) => {
      const conn = h.orm.em.getConnection();
      const proto = Object.getPrototypeOf(conn) as { execute: (...a: unknown[]) => unknown };
      const original = proto.execute;
      let n = 0;
      proto.execute = function (this: unknown, ...a: unknown[]) {
        n++;
        return original.apply(this, a);
      };
      try {
        await page(url);
      } finally {
        proto.execute = original;
      }
      return n;
    };
    const blocks = everyBlock();
    const grids = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `g${i}`, type: 'listing_grid', source: 'rule', rule: { sort: (['newest', 'price_asc', 'popular'] as const)[i % 3] } }));
    await put('small', 'en', { title: 'Small', description: '', blocks: [blocks[0], ...grids(1), blocks[5], blocks[7], blocks[11]] });
    await put('big', 'en', { title: 'Big', description: '', blocks: [...blocks, ...grids(10)] });
    for (const slug of ['small', 'big']) await h.console.pages.publish({ marketplace: 'shop', slug, locale: 'en' });
    const small = await count('/v1/pages/small?currency=EUR');
    const big = await count('/v1/pages/big?currency=EUR');
    expect(small).toBeGreaterThan(0);
    expect(big).toBe(small);
    // the API key lookup, the page, media, rule grids, listings, their photos/terms/sites, categories, sites, rates (each with its transaction's settings)
    expect(big).toBeLessThanOrEqual(20);
  });
});

describe('drafts and previews', () => {
  test('a preview shows the draft; the published page does not change; headers say no-store and noindex', async () => {
    await put('home', 'en', { title: 'Home (new)', description: 'Draft.', blocks: [{ id: 'text', type: 'text', body: 'Coming soon.' }] });
    expect((await page('/v1/pages/home')).title).toBe('Home');
    const { preview } = await h.console.pages.previewLink({ marketplace: 'shop', slug: 'home', locale: 'en' });
    expect(preview.url).toBe(`https://shop.example/en/preview/home?token=${encodeURIComponent(preview.token)}`);
    expect(new Date(preview.expires_at).getTime() - h.clock.now().getTime()).toBe(7 * 24 * 3600 * 1000);
    const res = await get(`/v1/pages/home/preview?token=${preview.token}`, m.publishable);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-robots-tag']).toBe('noindex');
    expect(res.json()).toMatchObject({ title: 'Home (new)', blocks: [{ id: 'text', body: 'Coming soon.' }] });
    const listed = (await h.console.pages.list({ marketplace: 'shop' })).items.find((p) => p.slug === 'home' && p.locale === 'en');
    expect(listed).toMatchObject({ published: true, draft_differs: true });

    // a wrong token, another page's slug, another marketplace: 404 (still not cached)
    const wrong = await get(`/v1/pages/home/preview?token=${preview.token}x`);
    expect(wrong.statusCode).toBe(404);
    expect(wrong.headers['cache-control']).toBe('no-store');
    expect((await get(`/v1/pages/about/preview?token=${preview.token}`)).statusCode).toBe(404);
    expect((await get(`/v1/pages/home/preview?token=${preview.token}`, other.secret)).statusCode).toBe(404);
    expect((await get(`/v1/pages/home/preview`)).statusCode).toBe(422);
    expect((await get(`/v1/pages/home/preview?token=${'a'.repeat(101)}`)).statusCode).toBe(422);

    // valid for 7 days, to the second
    h.clock.advance(7 * 24 * 3600 * 1000 - 1000);
    expect((await get(`/v1/pages/home/preview?token=${preview.token}`)).statusCode).toBe(200);
    h.clock.advance(1000);
    expect((await get(`/v1/pages/home/preview?token=${preview.token}`)).statusCode).toBe(404);

    // a new link ends the previous one
    const second = (await h.console.pages.previewLink({ marketplace: 'shop', slug: 'home', locale: 'en' })).preview;
    const third = (await h.console.pages.previewLink({ marketplace: 'shop', slug: 'home', locale: 'en' })).preview;
    expect((await get(`/v1/pages/home/preview?token=${second.token}`)).statusCode).toBe(404);
    expect((await get(`/v1/pages/home/preview?token=${third.token}`)).statusCode).toBe(200);

    // publishing makes the draft the page
    await h.console.pages.publish({ marketplace: 'shop', slug: 'home', locale: 'en' });
    expect((await page('/v1/pages/home')).title).toBe('Home (new)');
    await put('home', 'en', { title: 'Home', description: 'The front page.', share_image_id: I.wide, blocks: everyBlock() });
    await h.console.pages.publish({ marketplace: 'shop', slug: 'home', locale: 'en' });
  });
});

describe('media', () => {
  test('sizes: thumb 400 square, medium 800, large 1600, xlarge 2400; cached a year with an ETag', async () => {
    const { default: sharp } = await import('sharp');
    const expected = { thumb: [400, 400], medium: [800, 533], large: [1600, 1067], xlarge: [2400, 1600] } as const;
    for (const [size, [w, hgt]] of Object.entries(expected)) {
      const res = await h.request({ method: 'GET', url: `/v1/media/${I.wide}/${size}.jpg` });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/jpeg');
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const meta = await sharp(res.rawPayload).metadata();
      expect([meta.width, meta.height], size).toEqual([w, hgt]);
      const again = await h.request({ method: 'GET', url: `/v1/media/${I.wide}/${size}.jpg`, headers: { 'if-none-match': String(res.headers.etag) } });
      expect(again.statusCode).toBe(304);
    }
    // never enlarged
    const small = await sharp((await h.request({ method: 'GET', url: `/v1/media/${I.small}/xlarge.jpg` })).rawPayload).metadata();
    expect([small.width, small.height]).toEqual([500, 300]);
  });

  test('unknown files and ids: 404 problems; listing photo paths do not serve media', async () => {
    for (const url of [`/v1/media/${I.wide}/huge.jpg`, `/v1/media/${I.wide}/thumb.png`, '/v1/media/not-a-uuid/thumb.jpg', `/v1/media/${crypto.randomUUID()}/thumb.jpg`, `/v1/images/${I.wide}/thumb.jpg`]) {
      const res = await h.request({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type']).toMatch(/problem\+json/);
    }
  });

  test('upload: not an image, too many pixels → problems; nothing stored', async () => {
    await expect(h.console.media.upload({ marketplace: 'shop', file: Buffer.from('hello'), alt: 'x' })).rejects.toMatchObject({ cause: { code: 'unsupported_media_type' } });
    const png = Buffer.alloc(33);
    png.writeUInt32BE(0x89504e47, 0);
    png.writeUInt32BE(0x0d0a1a0a, 4);
    png.write('IHDR', 12, 'latin1');
    png.writeUInt32BE(10000, 16);
    png.writeUInt32BE(6000, 20);
    await expect(h.console.media.upload({ marketplace: 'shop', file: png, alt: 'bomb' })).rejects.toMatchObject({ cause: { code: 'validation_failed' } });
    await expect(h.console.media.upload({ marketplace: 'shop', file: await jpeg(10, 10), alt: '' })).rejects.toMatchObject({ cause: { name: 'ZodError', issues: [{ path: ['alt'] }] } });
  });
});

describe('pages put: the whole draft checked, every problem listed', () => {
  const ok = () => ({ title: 'Checks', description: '', blocks: [] as Block[] });
  const link = (label: string, href = '/en') => ({ label, href });

  test('limits at their edges pass', async () => {
    const page = {
      title: 'T'.repeat(140),
      description: '',
      blocks: [
        { id: 'a'.repeat(40), type: 'links', links: Array.from({ length: 8 }, (_, i) => link('L'.repeat(60), `/p${i}`)) },
        { id: 'A-z_9', type: 'hero', buttons: [link('One'), link('Two', `https://x.example/${'a'.repeat(500 - 22)}`)] },
        { id: 'g1', type: 'listing_grid', source: 'picked', listing_ids: [L.chair], limit: 1 },
        { id: 'g24', type: 'listing_grid', source: 'rule', rule: {}, limit: 24 },
        { id: 'p', type: 'promises', items: Array.from({ length: 6 }, () => ({ title: 'P' })) },
        { id: 'f', type: 'faq', questions: Array.from({ length: 40 }, () => ({ question: 'Q', answer: 'A' })) },
        { id: 't', type: 'category_tiles', tiles: Array.from({ length: 12 }, () => ({ category_id: m.category.chairs })) },
        { id: 'c', type: 'cta', buttons: [link('One'), link('Two')] },
        { id: 'p1', type: 'promises', items: [{ title: 'P' }] },
        { id: 'f1', type: 'faq', questions: [{ question: 'Q', answer: 'A' }] },
        { id: 't1', type: 'category_tiles', tiles: [{ category_id: m.category.chairs }] },
        { id: 'l1', type: 'links', links: [link('x')] },
      ],
    };
    expect(`https://x.example/${'a'.repeat(500 - 22)}`.length).toBeLessThanOrEqual(500);
    await expect(put('edges', 'en', page)).resolves.toMatchObject({ page: { slug: 'edges', blocks: 12, published: false } });
  });

  test('one over (and under) every limit: all problems at once, each at its place', async () => {
    const errors = await problems({
      title: 'T'.repeat(141),
      description: '',
      blocks: [
        { id: 'a'.repeat(41), type: 'links', links: Array.from({ length: 9 }, () => link('x')) },
        { id: 'bad id', type: 'links', links: [] },
        { id: 'h', type: 'hero', buttons: [link('1'), link('2'), link('3')] },
        { id: 'g0', type: 'listing_grid', source: 'picked', listing_ids: [L.chair], limit: 0 },
        { id: 'g25', type: 'listing_grid', source: 'rule', rule: {}, limit: 25 },
        { id: 'p', type: 'promises', items: Array.from({ length: 7 }, () => ({ title: 'P' })) },
        { id: 'p0', type: 'promises', items: [] },
        { id: 'f', type: 'faq', questions: Array.from({ length: 41 }, () => ({ question: 'Q', answer: 'A' })) },
        { id: 'f0', type: 'faq', questions: [] },
        { id: 't', type: 'category_tiles', tiles: Array.from({ length: 13 }, () => ({ category_id: m.category.chairs })) },
        { id: 't0', type: 'category_tiles', tiles: [] },
        { id: 'c', type: 'cta', buttons: [link('L'.repeat(61)), { label: 'x', href: `/${'a'.repeat(500)}` }] },
        { id: '', type: 'text', body: 'x' },
      ],
    });
    const at = errors.map((e) => e.location).sort();
    expect(at).toEqual(
      [
        'page.title',
        'page.blocks.0.id',
        'page.blocks.0.links',
        'page.blocks.1.id',
        'page.blocks.1.links',
        'page.blocks.2.buttons',
        'page.blocks.3.limit',
        'page.blocks.4.limit',
        'page.blocks.5.items',
        'page.blocks.6.items',
        'page.blocks.7.questions',
        'page.blocks.8.questions',
        'page.blocks.9.tiles',
        'page.blocks.10.tiles',
        'page.blocks.11.buttons.0.label',
        'page.blocks.11.buttons.1.href',
        'page.blocks.12.id',
      ].sort(),
    );
  });

  test('links: a shop path or an https address; fields of another type and unknown types are refused; ids unique', async () => {
    expect(
      await locations({
        ...ok(),
        blocks: [
          { id: 'l', type: 'links', links: [link('a', 'http://x.example'), link('b', '//evil.example'), link('c', 'javascript:alert(1)'), link('d', 'shop/path'), link('e', '/ok'), link('f', 'https://ok.example/x'), { label: '', href: '/' }, { label: 'x', href: '/', style: 'loud' }] },
          { id: 'l', type: 'text', body: 'x', heading: 'Not for text' },
          { id: 'x', type: 'carousel' },
          { id: 'n', type: 'newsletter', listing_id: L.chair },
          { id: 'g', type: 'listing_grid', source: 'picked' },
          { id: 'r', type: 'listing_grid', source: 'rule', listing_ids: [L.chair] },
          { id: 'v', type: 'hero', visual: 'listing' },
        ],
      }),
    ).toEqual(
      [
        'page.blocks.0.links.0.href',
        'page.blocks.0.links.1.href',
        'page.blocks.0.links.2.href',
        'page.blocks.0.links.3.href',
        'page.blocks.0.links.6.label',
        'page.blocks.0.links.7.style',
        'page.blocks.1.heading',
        'page.blocks.1.id',
        'page.blocks.2.type',
        'page.blocks.3.listing_id',
        'page.blocks.4.listing_ids',
        'page.blocks.5.listing_ids',
        'page.blocks.5.rule',
        'page.blocks.6.listing_id',
      ].sort(),
    );
  });

  test("references: missing ids and other marketplaces' listings, images, categories and sites", async () => {
    const errors = await problems({
      ...ok(),
      share_image_id: foreign.image,
      blocks: [
        { id: 'g', type: 'listing_grid', source: 'picked', listing_ids: [L.chair, foreign.listing] },
        { id: 'r', type: 'listing_grid', source: 'rule', rule: { category_id: foreign.category } },
        { id: 'b', type: 'banner', heading: 'x', image_id: foreign.image, phone_image_id: crypto.randomUUID() },
        { id: 't', type: 'category_tiles', tiles: [{ category_id: foreign.category, image_id: I.small }] },
        { id: 's', type: 'showroom', location_id: foreign.site },
        { id: 'f', type: 'featured_listing', listing_id: foreign.listing },
      ],
    });
    expect(errors.map((e) => e.location).sort()).toEqual(
      ['page.share_image_id', 'page.blocks.0.listing_ids.1', 'page.blocks.1.rule.category_id', 'page.blocks.2.image_id', 'page.blocks.2.phone_image_id', 'page.blocks.3.tiles.0.category_id', 'page.blocks.4.location_id', 'page.blocks.5.listing_id'].sort(),
    );
    expect(errors.find((e) => e.location === 'page.blocks.0.listing_ids.1')!.message).toBe('No such listing in this marketplace.');
  });

  test('structure and references in one answer; a language the marketplace does not have', async () => {
    const errors = await problems({ title: '', description: '', blocks: [{ id: 's', type: 'showroom', location_id: foreign.site, heading: 'h', tone: 'dark' }] }, 'checks', 'de');
    expect(errors.map((e) => e.location).sort()).toEqual(['locale', 'page.blocks.0.location_id', 'page.blocks.0.tone', 'page.title'].sort());
  });
});

describe('tenancy', () => {
  test("another marketplace's key sees none of these pages, and its own pages only", async () => {
    expect((await get('/v1/pages/home', other.secret)).statusCode).toBe(404);
    expect((await get('/v1/pages', other.secret)).json().items).toEqual([]);
    await put('home', 'en', { title: 'Elsewhere', description: '', blocks: [{ id: 't', type: 'text', body: 'Other.' }] }, 'elsewhere');
    await h.console.pages.publish({ marketplace: 'elsewhere', slug: 'home', locale: 'en' });
    expect((await page('/v1/pages/home', other.secret)).title).toBe('Elsewhere');
    expect((await page('/v1/pages/home')).title).toBe('Home');
  });

  test('a key is needed for pages, none for media', async () => {
    expect((await h.request({ method: 'GET', url: '/v1/pages/home' })).statusCode).toBe(401);
    expect((await h.request({ method: 'GET', url: `/v1/media/${foreign.image}/thumb.jpg` })).statusCode).toBe(200);
  });
});

describe('demo content', () => {
  test('the demo marketplace gets published home and about pages in both languages, once', async () => {
    const { keys } = await seedDemo(h.orm, { mode: 'test', storefrontUrl: 'https://demo.example', today: '2026-11-22' });
    expect(await ensureDemoPages({ orm: h.orm, ports: h.ports })).toBe(true);
    const list = (await get('/v1/pages', keys.secret)).json().items.map((p: { slug: string; locale: string }) => `${p.slug}/${p.locale}`);
    expect(list).toEqual(['about/en', 'about/sv', 'home/en', 'home/sv']);
    const en = await page('/v1/pages/home?locale=en', keys.secret);
    const sv = await page('/v1/pages/home?locale=sv', keys.secret);
    // no listings yet: the grids are left out until listings go on sale
    const types = ['hero', 'category_tiles', 'promises', 'image_text', 'banner', 'cta', 'showroom', 'newsletter', 'faq', 'links'];
    expect(en.blocks.map((b) => b.type)).toEqual(types);
    expect(sv.blocks.map((b) => b.type)).toEqual(types);
    expect(sv.title).toBe('Begagnad design, kontrollerad av oss');
    expect((blockOf(sv, 'categories')!.tiles as { category: { name: string } }[]).map((t) => t.category.name)).toEqual(['Möbler', 'Belysning']);
    // a restart changes nothing, and an operator's edit is kept
    await put('home', 'en', { title: 'Edited', description: '', blocks: [] }, 'demo');
    expect(await ensureDemoPages({ orm: h.orm, ports: h.ports })).toBe(false);
    expect((await h.console.pages.list({ marketplace: 'demo' })).items.find((p) => p.slug === 'home' && p.locale === 'en')!.title).toBe('Edited');
  });
});
