import { describe, expect, test } from 'vitest';
import { h, m, I, foreign, get, page, blockOf, put, pagesSuite } from './pages.fixture.js';
import { jpeg } from './harness.js';

/** Media for content pages (sizes, caching, uploads refused) and texts per language on pages (opening hours, alt text); the pages themselves: pages.e2e.test.ts. */
pagesSuite();

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
    await expect(h.console.media.upload({ marketplace: 'shop', file: Buffer.from('hello'), alt: 'x' })).rejects.toMatchObject({ cause: { code: 'unsupported_image' } });
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

describe('texts per language (opening hours, alt text)', () => {
  test("a site's opening hours and an image's alt text are read in the page's language, else the default language's; the console sets them; only the marketplace's languages", async () => {
    const site = await h.console.sites.setOpeningHours({ marketplace: 'shop', id: m.siteId!, opening_hours_by_language: { sv: 'tis–lör 11–18' } });
    expect(site.site).toMatchObject({ opening_hours: 'Tue–Sat 11–18', opening_hours_by_language: { sv: 'tis–lör 11–18' } });
    const image = await h.console.media.setAlt({ marketplace: 'shop', id: I.wide!, alts: { en: 'A wide room', sv: 'Ett brett rum' } });
    expect(image.image).toMatchObject({ id: I.wide, alt: 'A wide room', alts: { en: 'A wide room', sv: 'Ett brett rum' } });
    await put('texts', 'sv', { title: 'Texter', description: '', share_image_id: I.wide, blocks: [{ id: 'hero', type: 'hero', heading: 'Hej', visual: 'image', image_id: I.wide }, { id: 'showroom', type: 'showroom', location_id: m.siteId }] });
    await h.console.pages.publish({ marketplace: 'shop', slug: 'texts', locale: 'sv' });
    await put('texts', 'en', { title: 'Texts', description: '', blocks: [{ id: 'hero', type: 'hero', heading: 'Hi', visual: 'image', image_id: I.wide }, { id: 'showroom', type: 'showroom', location_id: m.siteId }] });
    await h.console.pages.publish({ marketplace: 'shop', slug: 'texts', locale: 'en' });
    const sv = await page('/v1/pages/texts?locale=sv-FI');
    expect(sv.share_image).toMatchObject({ alt: 'Ett brett rum' });
    expect(blockOf(sv, 'hero')!.image).toMatchObject({ alt: 'Ett brett rum', alts: { en: 'A wide room', sv: 'Ett brett rum' } });
    expect((blockOf(sv, 'showroom')!.location as { opening_hours: string }).opening_hours).toBe('tis–lör 11–18');
    // English has no text of its own for the hours: the default language's
    const en = await page('/v1/pages/texts?locale=en');
    expect((blockOf(en, 'showroom')!.location as { opening_hours: string }).opening_hours).toBe('Tue–Sat 11–18');
    expect(blockOf(en, 'hero')!.image).toMatchObject({ alt: 'A wide room' });
    const sites = (await get('/v1/locations')).json().items as { id: string; opening_hours_by_language?: Record<string, string> }[];
    expect(sites.find((x) => x.id === m.siteId)!.opening_hours_by_language).toEqual({ sv: 'tis–lör 11–18' });

    // a language the marketplace does not have is refused at its key, nothing changed
    await expect(h.console.sites.setOpeningHours({ marketplace: 'shop', id: m.siteId!, opening_hours_by_language: { sv: 'x', de: 'Di–Sa 11–18' } })).rejects.toMatchObject({ cause: { code: 'validation_failed', errors: [{ location: 'opening_hours_by_language.de' }] } });
    await expect(h.console.media.setAlt({ marketplace: 'shop', id: I.wide!, alts: { fr: 'Une pièce' } })).rejects.toMatchObject({ cause: { code: 'validation_failed', errors: [{ location: 'alts.fr' }] } });
    await expect(h.console.sites.create({ marketplace: 'shop', site: { kind: 'warehouse', name: 'Lager', line1: 'Väg 2', postal_code: '12345', city: 'Solna', country: 'SE', opening_hours_by_language: { de: 'Mo' } } })).rejects.toMatchObject({ cause: { code: 'validation_failed', errors: [{ location: 'site.opening_hours_by_language.de' }] } });
    await expect(h.console.media.setAlt({ marketplace: 'shop', id: foreign.image!, alt: 'Not ours' })).rejects.toMatchObject({ cause: { code: 'not_found' } });
    expect((await page('/v1/pages/texts?locale=sv')).share_image).toMatchObject({ alt: 'Ett brett rum' });

    // an empty map removes the texts per language: the default language's again
    await h.console.sites.setOpeningHours({ marketplace: 'shop', id: m.siteId!, opening_hours_by_language: {} });
    await h.console.media.setAlt({ marketplace: 'shop', id: I.wide!, alts: {} });
    const plain = await page('/v1/pages/texts?locale=sv');
    expect((blockOf(plain, 'showroom')!.location as { opening_hours: string }).opening_hours).toBe('Tue–Sat 11–18');
    expect(blockOf(plain, 'hero')!.image).toEqual(expect.not.objectContaining({ alts: expect.anything() }));
    expect((blockOf(plain, 'hero')!.image as { alt: string }).alt).toBe('A wide room');
  });
});
