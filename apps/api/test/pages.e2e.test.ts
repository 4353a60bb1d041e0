import { describe, expect, test } from 'vitest';
import { seedDemo } from '@hm/domain/demo';
import { ensureDemoPages } from '@hm/domain/demo-pages';
import { h, m, other, L, I, foreign, get, page, blockOf, put, everyBlock, pagesSuite } from './pages.fixture.js';

/** Content pages: live blocks, drafts and previews, locales, currencies, tenancy (validation: pages-validation.e2e.test.ts; media and texts per language: pages-media.e2e.test.ts). */
pagesSuite();

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
    // the showroom's opening hours and the pictures' alt texts in the page's language
    expect((blockOf(en, 'showroom')!.location as { opening_hours: string }).opening_hours).toBe('Tue–Sat 11–18');
    expect((blockOf(sv, 'showroom')!.location as { opening_hours: string }).opening_hours).toBe('tis–lör 11–18');
    expect((blockOf(en, 'hero')!.image as { alt: string }).alt).toBe('A bright living room with a sofa, a lamp and plants');
    expect((blockOf(sv, 'hero')!.image as { alt: string }).alt).toBe('Ett ljust vardagsrum med soffa, lampa och växter');
    expect((blockOf(sv, 'autumn')!.image as { alts: Record<string, string> }).alts).toEqual({ en: 'A bright living room with a sofa, a lamp and plants', sv: 'Ett ljust vardagsrum med soffa, lampa och växter' });
    expect((await get('/v1/locations', keys.secret)).json().items[0].opening_hours_by_language).toEqual({ en: 'Tue–Sat 11–18', sv: 'tis–lör 11–18' });
    // the shipping table's texts in both languages too: `name` (and `about`, `delivery_time`) stay the default language's
    type Text = { name: string; names?: Record<string, string>; about?: string; abouts?: Record<string, string>; delivery_time?: string; delivery_times?: Record<string, string> };
    const { shipping } = (await get('/v1/marketplace', keys.secret)).json() as { shipping: { sizes: Text[]; zones: Text[]; options: Text[] } };
    const rows = [...shipping.sizes, ...shipping.zones, ...shipping.options];
    expect(rows.length).toBe(5);
    for (const r of rows) {
      expect(Object.keys(r.names ?? {}).sort(), r.name).toEqual(['en', 'sv']);
      expect(r.names!.en).toBe(r.name);
      expect(r.names!.sv).not.toBe(r.name);
    }
    for (const s of shipping.sizes) expect(s.abouts).toEqual({ en: s.about, sv: expect.not.stringMatching(s.about!) });
    expect(shipping.zones.map((z) => [z.names!.sv, z.delivery_times])).toEqual([
      ['Sverige', { en: '1–3 days', sv: '1–3 dagar' }],
      ['Europa', { en: '3–6 days', sv: '3–6 dagar' }],
    ]);
    // a restart changes nothing, and an operator's edit is kept
    await put('home', 'en', { title: 'Edited', description: '', blocks: [] }, 'demo');
    expect(await ensureDemoPages({ orm: h.orm, ports: h.ports })).toBe(false);
    expect((await h.console.pages.list({ marketplace: 'demo' })).items.find((p) => p.slug === 'home' && p.locale === 'en')!.title).toBe('Edited');
  });
});
