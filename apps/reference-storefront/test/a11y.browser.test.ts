import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { axeProblems, keyboardProblems, phoneProblems, structureProblems } from './a11y.js';
import { makeShop, type ShopFixture } from './shop-fixture.js';
import { makeContentPages } from './pages-fixture.js';
import { ARTIFACTS, startStack, type Stack } from './stack.js';

/**
 * Every page of the storefront, signed out and in, at a desktop and two phone sizes: axe-core finds
 * no serious or critical violation (desktop and 390 px), each page has its title, one h1, the
 * landmarks and a skip link, focus rings are visible, and phones (360 and 390 px) never scroll
 * sideways and get 44 px targets. Screenshots of every page and size go to test-results/a11y/.
 */
let stack: Stack;
let shop: ShopFixture;
let pages: { previewToken: string };
const sessions: Record<Who, BrowserContext | undefined> = { visitor: undefined, buyer: undefined, seller: undefined };
const tabs: Partial<Record<Who, Page>> = {};

beforeAll(async () => {
  stack = await startStack();
  shop = await makeShop(stack);
  pages = await makeContentPages(stack, shop);
  mkdirSync(SHOTS, { recursive: true });
});
afterAll(() => stack?.stop());

const SHOTS = path.join(ARTIFACTS, 'a11y');
const SHOP_NAME = 'Browser Shop';
type Who = 'visitor' | 'buyer' | 'seller';

const SIZES = [
  { name: 'desktop', width: 1280, height: 800, axe: true, phone: false },
  { name: 'phone', width: 390, height: 844, axe: true, phone: true },
  { name: 'small-phone', width: 360, height: 740, axe: false, phone: true },
] as const;

interface PageCase {
  name: string;
  path: () => string;
  who?: Who;
  status?: number;
  /** the language the page must be in (default: the path's prefix) */
  lang?: string;
  /** its h1, where the text is the point (404 and error pages in the right language) */
  h1?: string;
}

const UNKNOWN_ID = '01890000-0000-7000-8000-000000000000';

const PAGES: PageCase[] = [
  { name: 'home', path: () => '/en' },
  { name: 'home in Swedish', path: () => '/sv' },
  { name: 'home, signed in', path: () => '/en', who: 'buyer' },
  { name: 'search with results', path: () => '/en/search?q=artek' },
  { name: 'search filtered by brand and condition', path: () => '/sv/search?brand=louis-poulsen&condition=worn&sort=price_asc&currency=EUR' },
  { name: 'search with nothing found', path: () => '/en/search?q=zebra+wardrobe' },
  { name: 'category', path: () => '/en/c/chairs' },
  { name: 'category with subcategories, Swedish', path: () => '/sv/c/furniture' },
  { name: 'listing page', path: () => `/en/listings/${shop.listingId}` },
  { name: 'listing page, signed in, in EUR', path: () => `/sv/listings/${shop.listingId}?currency=EUR`, who: 'buyer' },
  { name: 'favourites', path: () => '/en/account/favorites', who: 'buyer' },
  { name: 'account', path: () => '/en/account', who: 'buyer' },
  { name: 'messages', path: () => '/en/account/messages', who: 'buyer' },
  { name: 'messages, seller, in Swedish', path: () => '/sv/account/messages', who: 'seller' },
  { name: 'conversation', path: () => `/en/account/messages/${shop.conversationId}`, who: 'buyer' },
  { name: 'contact support', path: () => '/en/account/messages/support', who: 'buyer' },
  { name: '404: someone else’s conversation', path: () => `/en/account/messages/${UNKNOWN_ID}`, who: 'buyer', status: 404, h1: 'Page not found' },
  { name: 'seller: listings', path: () => '/en/account/listings', who: 'seller' },
  { name: 'seller: new listing', path: () => '/en/account/listings/new', who: 'seller' },
  { name: 'seller: edit draft', path: () => `/en/account/listings/${shop.draftId}`, who: 'seller' },
  { name: 'seller: listing on sale', path: () => `/sv/account/listings/${shop.listingId}`, who: 'seller' },
  { name: 'seller: payouts', path: () => '/en/account/payouts', who: 'seller' },
  { name: 'seller: payouts in Swedish', path: () => '/sv/account/payouts', who: 'seller' },
  { name: 'seller: sandbox payout onboarding', path: () => '/en/account/payouts/sandbox', who: 'seller' },
  { name: 'checkout', path: () => `/en/checkout/${shop.listingId}`, who: 'buyer' },
  { name: 'checkout with an address, Swedish', path: () => `/sv/checkout/${shop.listingId}?method=shipping&name=Bo&line1=G%C3%B6tgatan+1&postal_code=11646&city=Stockholm&country=SE`, who: 'buyer' },
  { name: 'pay (sandbox test payment)', path: () => `/en/orders/${shop.pendingOrder.id}/pay`, who: 'buyer' },
  { name: 'order, buyer', path: () => `/en/orders/${shop.paidOrderId}`, who: 'buyer' },
  { name: 'order, seller, Swedish', path: () => `/sv/orders/${shop.paidOrderId}`, who: 'seller' },
  { name: 'orders bought', path: () => '/en/account/orders', who: 'buyer' },
  { name: 'orders sold, Swedish', path: () => '/sv/account/orders?as=seller', who: 'seller' },
  { name: 'sign in', path: () => '/en/auth/sign-in' },
  { name: 'sign in with an emailed link', path: () => '/sv/auth/sign-in?token=abc' },
  { name: 'sign up', path: () => '/en/auth/sign-up' },
  { name: 'reset password', path: () => '/en/auth/reset-password' },
  { name: 'reset password with a link', path: () => '/en/auth/reset-password?token=abc' },
  { name: 'verify email without a link', path: () => '/en/auth/verify-email' },
  { name: 'verify email with a bad link', path: () => '/sv/auth/verify-email?token=abc' },
  { name: 'sign out', path: () => '/en/auth/sign-out', who: 'buyer' },
  { name: 'dev mailbox', path: () => '/en/dev/mailbox' },
  { name: '404: unknown path', path: () => '/en/no-such-page', status: 404, h1: 'Page not found' },
  { name: '404: unknown path in Swedish', path: () => '/sv/ingen/sida', status: 404, h1: 'Sidan hittades inte' },
  { name: '404: unknown language', path: () => '/xx/search', status: 404, lang: 'en', h1: 'Page not found' },
  { name: '404: unknown listing', path: () => `/en/listings/${UNKNOWN_ID}`, status: 404, h1: 'Page not found' },
  { name: '404: malformed listing id', path: () => '/sv/listings/not-an-id', status: 404, h1: 'Sidan hittades inte' },
  { name: '404: unknown category', path: () => '/sv/c/no-such-category', status: 404, h1: 'Sidan hittades inte' },
  { name: 'content page: about', path: () => '/en/pages/about' },
  { name: 'content page with every block type, Swedish', path: () => '/sv/pages/campaign' },
  { name: 'content page with every block type, signed in', path: () => '/en/pages/campaign', who: 'buyer' },
  { name: 'page preview', path: () => `/en/preview/campaign?token=${pages.previewToken}` },
  { name: '404: unknown content page', path: () => '/sv/pages/no-such-page', status: 404, h1: 'Sidan hittades inte' },
  { name: '404: preview with a wrong token', path: () => '/en/preview/campaign?token=pv_wrong', status: 404, h1: 'Page not found' },
];

async function tab(who: Who): Promise<Page> {
  if (tabs[who]) return tabs[who];
  const context = await stack.browser.newContext({ baseURL: stack.storefrontUrl });
  const session = who === 'buyer' ? shop.buyerSession : who === 'seller' ? shop.sellerSession : undefined;
  if (session) await context.addCookies([{ name: 'hm_session', value: session, url: stack.storefrontUrl }]);
  // the pay cookie checkout sets after placing (lib/orders.ts), for the pay page
  if (who === 'buyer') await context.addCookies([{ name: `hm_pay_${shop.pendingOrder.id}`, value: shop.pendingOrder.clientSecret, url: stack.storefrontUrl }]);
  sessions[who] = context;
  return (tabs[who] = await context.newPage());
}

/** Opens the page at each size and lists every problem, prefixed with the size. */
async function check(c: PageCase): Promise<string[]> {
  const page = await tab(c.who ?? 'visitor');
  const url = c.path();
  const lang = c.lang ?? url.split('/')[1]!;
  const problems: string[] = [];
  for (const size of SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    const res = await page.goto(url, { waitUntil: 'load' });
    const status = res?.status();
    if (status !== (c.status ?? 200)) problems.push(`status: ${status} (expected ${c.status ?? 200})`);
    // Next renders 404 and error pages in the browser (its error recovery), so wait for the page's main
    await page.waitForSelector('main#main', { state: 'attached', timeout: 15_000 }).catch(() => {});
    // Titles come in the server's <head> (next.config.ts turns streamed metadata off), so a 404 has
    // its one title from the start; the error page sets its title once it has rendered in the
    // browser. Wait for that: one <title>, in <head>, and on a 404 or error page the page's own.
    await page
      .waitForFunction(
        (own) => {
          const titles = document.querySelectorAll('title');
          if (titles.length !== 1 || titles[0]!.parentElement !== document.head || !document.title.trim()) return false;
          return own === null || document.title.startsWith(own);
        },
        (c.status ?? 200) >= 400 ? (c.h1 ?? null) : null,
        { timeout: 15_000, polling: 100 },
      )
      .catch(() => {});
    // The dev server's tools button (absent from production builds) is not part of the shop
    await page.addStyleTag({ content: 'nextjs-portal { display: none !important; }' });
    const found: string[] = [];
    const h1 = await page.locator('h1').first().textContent({ timeout: 1000 }).catch(() => null);
    if (c.h1 && h1 !== c.h1) found.push(`h1: "${h1}" (expected "${c.h1}")`);
    found.push(...(await structureProblems(page, { lang, shopName: SHOP_NAME, isHome: /^\/(en|sv)$/.test(url) })));
    if (size.axe) found.push(...(await axeProblems(page)));
    if (size.phone) found.push(...(await phoneProblems(page)));
    else found.push(...(await keyboardProblems(page)));
    await page.screenshot({ path: path.join(SHOTS, `${c.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}-${size.width}.png`), fullPage: true });
    problems.push(...found.map((p) => `${size.name} ${size.width}px: ${p}`));
  }
  return [...new Set(problems)];
}

describe('every storefront page is accessible and fits a phone', () => {
  for (const c of PAGES) {
    test(`${c.name} (${c.who ?? 'signed out'})`, async () => {
      const problems = await check(c);
      expect(problems, `${c.path()}:\n${problems.join('\n')}`).toEqual([]);
    });
  }

  // Last: the API goes away. A page that cannot do without it shows the branded error page; the
  // home page says the shop is resting, inside the same frame.
  test('error page and the shop without its API', async () => {
    await stack.stopApi();
    const problems = [
      ...(await check({ name: 'error page', path: () => '/en/c/chairs', status: 500, h1: 'Something went wrong' })),
      ...(await check({ name: 'error page in Swedish', path: () => '/sv/c/chairs', status: 500, h1: 'Något gick fel' })),
      ...(await check({ name: 'home without the API', path: () => '/sv', h1: 'Butiken vilar' })),
    ];
    expect(problems, problems.join('\n')).toEqual([]);
    const page = tabs.visitor!;
    await page.goto('/en/c/chairs');
    await page.getByRole('button', { name: 'Try again' }).waitFor();
    await expect(page.getByRole('link', { name: 'Go to the shop' }).getAttribute('href')).resolves.toBe('/en');
  });
});
