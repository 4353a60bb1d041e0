import { afterAll, beforeAll, describe, expect, onTestFailed, test } from 'vitest';
import type { Page } from 'playwright-core';
import { PASSWORD, makeShop, type ShopFixture } from './shop-fixture.js';
import { screenshotOnFailure, startStack, type Stack } from './stack.js';

/** Finding things as a shopper does: categories by their readable URLs, the marketplace's filters, and "Sell". */
let stack: Stack;
let shop: ShopFixture;
beforeAll(async () => {
  stack = await startStack();
  shop = await makeShop(stack);
});
afterAll(() => stack?.stop());

async function visitor(): Promise<Page> {
  const page = await (await stack.browser.newContext({ baseURL: stack.storefrontUrl })).newPage();
  onTestFailed(async ({ task }) => screenshotOnFailure(page, task.name));
  return page;
}

const cardTitles = (page: Page) => page.locator('.listing-card-title').allTextContents();

describe('browsing the shop', () => {
  test('home → category → subcategory: readable URLs, titled by the category, in either language', async () => {
    const page = await visitor();
    await page.goto('/en');
    await page.getByRole('region', { name: 'Shop by category' }).getByRole('link', { name: 'Furniture' }).click();
    await page.waitForURL('**/en/c/furniture');
    await expect.poll(() => page.title()).toBe('Furniture · Browser Shop');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Furniture');
    await expect(cardTitles(page)).resolves.toEqual(['Artek stool 60']);
    await page.getByRole('navigation', { name: 'Narrow down' }).getByRole('link', { name: 'Chairs' }).click();
    await page.waitForURL('**/en/c/chairs');
    await expect(page.getByRole('navigation', { name: 'Breadcrumb' }).textContent()).resolves.toBe('HomeFurnitureChairs');
    await page.getByRole('navigation', { name: 'Language' }).getByRole('link', { name: 'Svenska' }).click();
    await page.waitForURL('**/sv/c/chairs');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Stolar');
    await expect.poll(() => page.title()).toBe('Stolar · Browser Shop');
  });

  test("search filters are the marketplace's term kinds, offering the terms in use, in the page's language", async () => {
    const page = await visitor();
    await page.goto('/sv/search');
    await expect(page.getByTestId('total').textContent()).resolves.toBe('2 annonser');
    const brand = page.getByLabel('Märke');
    await expect(brand.locator('option').allTextContents()).resolves.toEqual(['Alla', 'Artek (1)', 'Louis Poulsen (1)']);
    await expect(page.getByLabel('Skick').locator('option').allTextContents()).resolves.toEqual(['Alla', 'Bra (1)', 'Sliten (1)']);
    await brand.selectOption('louis-poulsen');
    await page.getByRole('button', { name: 'Visa', exact: true }).click();
    await page.waitForURL(/[?&]brand=louis-poulsen(&|$)/);
    await expect(page.getByTestId('total').textContent()).resolves.toBe('1 annons');
    await expect(cardTitles(page)).resolves.toEqual(['Louis Poulsen PH 5 pendant']);
    // the filter stays chosen; the counts are the API's facets: brands still offer each other (any of
    // them), the conditions count within the brand, and a condition that would find nothing is disabled
    await expect(page.getByLabel('Märke').inputValue()).resolves.toBe('louis-poulsen');
    await expect(page.getByLabel('Märke').locator('option').allTextContents()).resolves.toEqual(['Alla', 'Artek (1)', 'Louis Poulsen (1)']);
    const conditions = page.getByLabel('Skick').locator('option');
    await expect(conditions.allTextContents()).resolves.toEqual(expect.arrayContaining(['Alla']));
    const disabled = await conditions.evaluateAll((os) => os.filter((o) => (o as HTMLOptionElement).disabled).map((o) => o.textContent));
    expect(disabled).toHaveLength(1);
    expect(disabled[0]).toMatch(/\(0\)$/);
    // "Rensa filter" (clear) goes back to everything
    await page.getByRole('link', { name: 'Rensa filter' }).click();
    await page.waitForURL((u) => u.pathname === '/sv/search' && u.search === '');
    await expect(page.getByTestId('total').textContent()).resolves.toBe('2 annonser');
  });

  test('a price that is not a number is said, in the page\'s language, with what was typed kept; a later page links back', async () => {
    const page = await visitor();
    await page.goto('/en/search?min=abc');
    await expect(page.getByTestId('price-problem').textContent()).resolves.toBe('Min price: enter an amount like 250 or 1 250.50 — “abc” is not a number.');
    await expect(page.getByLabel('Min price (SEK)').inputValue()).resolves.toBe('abc');
    await expect(page.getByLabel('Min price (SEK)').getAttribute('aria-invalid')).resolves.toBe('true');
    await page.goto('/sv/search?max=tio');
    await expect(page.getByTestId('price-problem').textContent()).resolves.toBe('Högsta pris: ange ett belopp som 250 eller 1 250,50 — ”tio” är inte ett tal.');
    await page.goto('/sv/search?max=300');
    await expect(page.getByTestId('price-problem').count()).resolves.toBe(0);

    // the second page (after the API's first listing) has "Previous" back to the first, with the filters kept
    const res = await fetch(`${stack.apiUrl}/v1/listings?limit=1`, { headers: { authorization: `Bearer ${stack.secretKey}` } });
    const { next_cursor: cursor } = (await res.json()) as { next_cursor: string };
    await page.goto(`/en/search?sort=newest&cursor=${encodeURIComponent(cursor)}&back=`);
    await expect(cardTitles(page)).resolves.toHaveLength(1);
    await expect(page.getByRole('link', { name: 'More' }).count()).resolves.toBe(0);
    await page.getByRole('link', { name: '← Previous' }).click();
    await page.waitForURL((u) => u.pathname === '/en/search' && u.search === '?sort=newest');
    await expect(cardTitles(page)).resolves.toHaveLength(2);
    await expect(page.getByRole('link', { name: '← Previous' }).count()).resolves.toBe(0);
  });

  test('a word one letter off: "did you mean" offers the query that finds something, and the match is marked', async () => {
    const page = await visitor();
    await page.goto('/en/search?q=atek');
    await expect(page.getByTestId('total').textContent()).resolves.toBe('0 listings');
    await page.getByTestId('did-you-mean').getByRole('link', { name: 'artek' }).click();
    await page.waitForURL(/[?&]q=artek(&|$)/);
    await expect(cardTitles(page)).resolves.toEqual(['Artek stool 60']);
    await expect(page.locator('.listing-card-title mark').allTextContents()).resolves.toEqual(['Artek']);
    // a part of a longer word (4+ letters) is marked too: the search found it there
    await page.goto('/en/search?q=tool');
    await expect(page.locator('.listing-card-title mark').allTextContents()).resolves.toEqual(['tool']);
  });

  test("the home page's places to visit give their opening hours in the page's language, none of the other's", async () => {
    const page = await visitor();
    const visit = () => page.getByRole('region', { name: /^(Visit us|Besök oss)$/ });
    await page.goto('/en');
    await expect(visit().locator('.hours').allTextContents()).resolves.toEqual(['Tue–Sat 11–18']);
    await expect(visit().textContent()).resolves.toContain('Södermalm showroom');
    await page.goto('/sv');
    await expect(visit().locator('.hours').allTextContents()).resolves.toEqual(['tis–lör 11–18']);
    await expect(visit().textContent()).resolves.not.toContain('Tue–Sat');
  });

  test("a seller's listing whose last unit waits for payment reads Reserved, not On sale, in the list and the editor (en, sv)", async () => {
    const page = await (await stack.browser.newContext({ baseURL: stack.storefrontUrl })).newPage();
    onTestFailed(async ({ task }) => screenshotOnFailure(page, task.name));
    await page.context().addCookies([{ name: 'hm_session', value: shop.sellerSession, url: stack.storefrontUrl }]);
    // the teak tray: two units, one paid for, one in an order awaiting payment
    const row = () => page.getByTestId('my-listing').filter({ has: page.getByRole('link', { name: 'Teak tray' }) });
    await page.goto('/en/account/listings');
    await expect(row().getByTestId('my-listing-status').textContent()).resolves.toBe('Reserved');
    // a listing on sale keeps "On sale"
    await expect(page.getByTestId('my-listing').filter({ has: page.getByRole('link', { name: 'Artek stool 60' }) }).getByTestId('my-listing-status').textContent()).resolves.toBe('On sale');
    await row().getByRole('link', { name: 'Teak tray' }).click();
    await page.waitForURL(/\/en\/account\/listings\/[0-9a-f-]{36}$/);
    await expect(page.getByTestId('listing-status').textContent()).resolves.toBe('Reserved');
    await expect(page.locator('main').textContent()).resolves.toContain('The last item is held for a buyer who has not paid yet; back on sale if the payment does not come.');
    await expect(page.getByText('On sale since').count()).resolves.toBe(0);
    await page.goto(page.url().replace('/en/', '/sv/'));
    await expect(page.getByTestId('listing-status').textContent()).resolves.toBe('Reserverad');
    await expect(page.locator('main').textContent()).resolves.toContain('Det sista exemplaret är reserverat för en köpare som inte har betalat än');
    await page.goto('/sv/account/listings');
    await expect(row().getByTestId('my-listing-status').textContent()).resolves.toBe('Reserverad');
  });

  test('"Start selling" on the home page leads a visitor through sign-in to the new listing form', async () => {
    const page = await visitor();
    await page.goto('/en');
    await page.getByRole('link', { name: 'Start selling' }).click();
    await page.waitForURL('**/en/auth/sign-in?next=%2Fen%2Faccount%2Flistings%2Fnew');
    const form = page.getByRole('form', { name: 'Sign in' });
    await form.getByLabel('Email address').fill(shop.sellerEmail);
    await form.getByLabel('Password').fill(PASSWORD);
    await form.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/en/account/listings/new');
    await page.getByRole('form', { name: 'New listing' }).waitFor();
    // signed in, the same call to action goes straight to the form
    await page.goto('/en');
    await expect(page.getByRole('link', { name: 'Start selling' }).getAttribute('href')).resolves.toBe('/en/account/listings/new');
  });
});
