import { afterAll, beforeAll, describe, expect, onTestFailed, test } from 'vitest';
import type { Page } from 'playwright-core';
import { makeShop } from './shop-fixture.js';
import { screenshotOnFailure, startStack, type Stack } from './stack.js';
import { horizontalOverflow } from './shop-fixtures.js';

/**
 * Content pages in the browser (issue 15): the demo's front page, composed of blocks by the API,
 * rendered block by block in English and Swedish; a preview link showing a draft that the published
 * page does not; the hero's search box; the about page.
 */
let stack: Stack;
let page: Page;

type ApiBlock = { id: string; type: string; heading?: string; image?: { urls: Record<string, string> } };
const apiPage = async (slug: string, locale: string) => {
  const res = await fetch(`${stack.apiUrl}/v1/pages/${slug}?locale=${locale}`, { headers: { authorization: `Bearer ${stack.secretKey}` } });
  expect(res.status).toBe(200);
  return (await res.json()) as { title: string; blocks: ApiBlock[] };
};

beforeAll(async () => {
  stack = await startStack();
  await makeShop(stack);
  expect(await stack.demoPages()).toBe(true);
  page = await (await stack.browser.newContext({ baseURL: stack.storefrontUrl })).newPage();
}, 300_000);
afterAll(() => stack?.stop());

describe('the demo front page', () => {
  for (const lang of ['en', 'sv'] as const) {
    test(`renders every block the API gives, in order (${lang})`, async (ctx) => {
      onTestFailed(() => screenshotOnFailure(page, ctx.task.name));
      const home = await apiPage('home', lang);
      // the shop has listings, a showroom and categories: the grids are there too
      expect(home.blocks.map((b) => b.type)).toEqual(expect.arrayContaining(['hero', 'listing_grid', 'category_tiles', 'promises', 'image_text', 'banner', 'cta', 'showroom', 'newsletter', 'faq', 'links']));
      const res = await page.goto(`/${lang}`);
      expect(res?.status()).toBe(200);
      const rendered = await page.locator('main [data-block]').evaluateAll((els) => els.map((e) => e.getAttribute('data-block')));
      expect(rendered).toEqual(home.blocks.map((b) => b.type));
      // the newsletter block carries the shop's sign-up form with the editor's words, beside the footer's own
      const newsletterBlock = home.blocks.find((b) => b.type === 'newsletter')!;
      await expect.poll(() => page.locator('[data-block=newsletter] form input[type=email]').count()).toBe(1);
      if (newsletterBlock.heading) expect(await page.locator('[data-block=newsletter] h2').textContent()).toBe(newsletterBlock.heading);
      // the hero's heading is the page's one h1; every image has its sizes as srcset
      expect(await page.locator('h1').allTextContents()).toEqual([home.blocks[0]!.heading]);
      const srcset = await page.locator('[data-block=hero] img').getAttribute('srcset');
      expect(srcset).toContain(home.blocks[0]!.image!.urls.xlarge);
      expect(srcset).toContain(home.blocks[0]!.image!.urls.medium);
      // live content: listings on sale in the grids, the showroom's address, categories in the page's language
      expect(await page.locator('[data-block=listing_grid] .listing-card').count()).toBeGreaterThan(0);
      await expect.poll(() => page.locator('[data-block=showroom]').textContent()).toContain('Götgatan 1');
      // the showroom's opening hours and the hero picture's alt text in the page's language
      expect(await page.locator('[data-block=showroom]').textContent()).toContain(lang === 'sv' ? 'tis–lör 11–18' : 'Tue–Sat 11–18');
      const alt = lang === 'sv' ? 'Ett ljust vardagsrum med soffa, lampa och växter' : 'A bright living room with a sofa, a lamp and plants';
      expect(await page.locator('[data-block=hero] img').getAttribute('alt')).toBe(alt);
      // the banner's picture too (the "banner image alt text")
      expect(await page.locator('[data-block=banner] img').getAttribute('alt')).toBe(alt);
      expect(await page.locator('[data-block=category_tiles] a').allTextContents()).toEqual(lang === 'sv' ? ['Möbler', 'Belysning'] : ['Furniture', 'Lighting']);
      expect(await page.getAttribute('html', 'lang')).toBe(lang);
      // an answer behind its question opens
      await page.locator('[data-block=faq] summary').first().click();
      await expect.poll(() => page.locator('[data-block=faq] details').first().getAttribute('open')).not.toBeNull();
      await page.setViewportSize({ width: 360, height: 740 });
      expect(await horizontalOverflow(page)).toBe(0);
      await page.setViewportSize({ width: 1280, height: 800 });
    });
  }

  test('the hero search box searches the shop', async (ctx) => {
    onTestFailed(() => screenshotOnFailure(page, ctx.task.name));
    await page.goto('/en');
    await page.locator('[data-block=hero] input[name=q]').fill('artek');
    await page.locator('[data-block=hero] button[type=submit]').click();
    await page.waitForURL(/\/en\/search\?q=artek/);
    await expect.poll(() => page.locator('main').textContent()).toContain('Artek stool 60');
  });

  test('the about page, linked from the front page', async (ctx) => {
    onTestFailed(() => screenshotOnFailure(page, ctx.task.name));
    await page.goto('/sv/pages/about');
    expect(await page.locator('h1').allTextContents()).toEqual(['Om oss']);
    expect(await page.title()).toBe('Om oss · Browser Shop');
    expect(await page.locator('[data-block=text] h2').textContent()).toBe('En marknadsplats för saker som håller');
    expect((await page.goto('/en/pages/no-such-page'))?.status()).toBe(404);
  });
});

describe('previews', () => {
  test('a preview link shows a draft change that the published page does not', async (ctx) => {
    onTestFailed(() => screenshotOnFailure(page, ctx.task.name));
    const published = await apiPage('home', 'en');
    const draft = {
      title: 'Winter at the shop',
      description: 'Draft.',
      blocks: [{ id: 'hero', type: 'hero', heading: 'Winter sale starts Friday', text: 'Everything 20 % off.' }, { id: 'text', type: 'text', body: 'Only **this week**.' }],
    };
    await stack.operator.pages.put({ marketplace: 'browser-shop', slug: 'home', locale: 'en', page: draft });
    const { preview } = await stack.operator.pages.previewLink({ marketplace: 'browser-shop', slug: 'home', locale: 'en' });
    const url = new URL(preview.url);
    expect(url.pathname).toBe('/en/preview/home');

    const res = await page.goto(`${url.pathname}${url.search}`);
    expect(res?.status()).toBe(200);
    expect(res?.headers()['x-robots-tag']).toContain('noindex');
    expect(res?.headers()['cache-control']).toContain('no-store');
    expect(await page.locator('h1').allTextContents()).toEqual(['Winter sale starts Friday']);
    expect(await page.locator('main [role=status]').textContent()).toContain('draft');
    expect(await page.locator('[data-block=text] strong').textContent()).toBe('this week');
    expect(await page.locator('meta[name=robots]').getAttribute('content')).toContain('noindex');

    await page.goto('/en');
    expect(await page.locator('h1').allTextContents()).toEqual([published.blocks[0]!.heading]);
    expect(await page.locator('main').textContent()).not.toContain('Winter sale');

    // a wrong token: the shop's 404
    expect((await page.goto('/en/preview/home?token=pv_wrong'))?.status()).toBe(404);
  });
});
