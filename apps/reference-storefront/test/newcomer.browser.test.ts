import path from 'node:path';
import { afterAll, beforeAll, describe, expect, onTestFailed, test } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { ARTIFACTS, screenshotOnFailure, startStack, whenHydrated, type Stack } from './stack.js';
import { RAW_TEXT, horizontalOverflow, listOnSale, myListing, photo, signUp, signUpInBrowser } from './shop-fixtures.js';

/**
 * Issue 11's newcomer walk: a shop with listings and photos, search in either currency, the
 * product page's gallery, a seller listing three photos, and a seller making mistakes in Swedish.
 */
let stack: Stack;
const L: Record<'stool' | 'lamp' | 'table', string> = { stool: '', lamp: '', table: '' };
let sellerSession = '';
const PHONE = { width: 390, height: 844 };

beforeAll(async () => {
  stack = await startStack();
  const shop = 'browser-shop';
  await stack.operator.marketplace.update({
    marketplace: shop,
    settings: {
      term_kinds: [
        { key: 'brand', names: { en: 'Brand', sv: 'Märke' } },
        { key: 'condition', names: { en: 'Condition', sv: 'Skick' } },
      ],
      shipping: {
        currency: 'SEK',
        sizes: [{ key: 'small', name: 'Small parcel', names: { sv: 'Litet paket' }, about: 'Fits in a shoebox', abouts: { sv: 'Ryms i en skokartong' } }],
        zones: [{ key: 'se', name: 'Sweden', names: { sv: 'Sverige' }, countries: ['SE'], delivery_time: '1–3 days', delivery_times: { sv: '1–3 dagar' } }],
        options: [{ key: 'standard', name: 'Standard delivery', names: { sv: 'Standardleverans' } }],
        delivery: { standard: { small: { se: 7900 } } },
      },
    },
  });
  await stack.operator.categories.import({
    marketplace: shop,
    items: [
      { slug: 'furniture', names: { en: 'Furniture', sv: 'Möbler' }, position: 1 },
      { slug: 'chairs', names: { en: 'Chairs', sv: 'Stolar' }, parent: 'furniture', position: 1 },
      { slug: 'lighting', names: { en: 'Lighting', sv: 'Belysning' }, position: 2 },
    ],
  });
  await stack.operator.terms.import({
    marketplace: shop,
    items: [
      { kind: 'brand', slug: 'artek', names: { en: 'Artek', sv: 'Artek' }, descriptions: { en: 'Finnish furniture since 1935.', sv: 'Finska möbler sedan 1935.' } },
      { kind: 'condition', slug: 'good', names: { en: 'Good', sv: 'Bra' }, descriptions: { en: 'Used, with light marks.', sv: 'Använd, med lätta spår.' } },
    ],
  });
  await stack.operator.rates.set({ marketplace: shop, date: new Date().toISOString().slice(0, 10), base: 'EUR', rates: { SEK: 11.5 } });
  const categories = await (await fetch(`${stack.apiUrl}/v1/categories`, { headers: { authorization: `Bearer ${stack.secretKey}` } })).json();
  const chairs = categories.items.find((c: { slug: string }) => c.slug === 'chairs').id;
  const term = async (kind: string, slug: string) => (await (await fetch(`${stack.apiUrl}/v1/catalog-terms/${kind}/${slug}`, { headers: { authorization: `Bearer ${stack.secretKey}` } })).json()).id;
  const seller = await signUp(stack, `lena.${Date.now()}@example.com`, 'Lena’s Loppis');
  sellerSession = seller;
  const place = { country: 'SE', city: 'Stockholm' };
  L.stool = await listOnSale(
    stack,
    seller,
    {
      title: 'Artek stool 60',
      description: 'Three legs, birch, 1970s.',
      price: { amount: 120000, currency: 'SEK' },
      category_id: chairs,
      terms: { brand: await term('brand', 'artek'), condition: await term('condition', 'good') },
      location: place,
      delivery: { pickup: true, shipping: {} },
    },
    ['#b5651d', '#2e6f57', '#2b4c7e'],
    'small',
  );
  L.lamp = await listOnSale(stack, seller, { title: 'Brass table lamp', price: { amount: 8000, currency: 'EUR' }, location: place, delivery: { buyer_arranged: true } }, ['#c8a040', '#6b4e16']);
  L.table = await listOnSale(stack, seller, { title: 'Oak dining table', price: { amount: 650000, currency: 'SEK' }, location: place, delivery: { pickup: true } }, ['#7a5230']);
});
afterAll(() => stack?.stop());

let context: BrowserContext | undefined;
async function newPage(viewport = { width: 1280, height: 900 }): Promise<Page> {
  await context?.close();
  context = await stack.browser.newContext({ baseURL: stack.storefrontUrl, viewport });
  const page = await context.newPage();
  onTestFailed(async ({ task }) => screenshotOnFailure(page, task.name));
  return page;
}

const titles = (page: Page) => page.locator('.listing-card .listing-card-title').allTextContents();

describe('a newcomer walks the shop', () => {
  test('the home page shows listings with their photos', async () => {
    const page = await newPage();
    await page.goto('/en');
    for (const title of ['Artek stool 60', 'Brass table lamp', 'Oak dining table']) await page.locator('.listing-card', { hasText: title }).waitFor();
    const photos = page.locator('.listing-card img');
    expect(await photos.count()).toBeGreaterThanOrEqual(3);
    // every photo really loaded (not a broken image)
    await page.waitForFunction(() => [...document.querySelectorAll<HTMLImageElement>('.listing-card img')].every((i) => i.complete && i.naturalWidth > 0));
  });

  test('search finds a listing in either currency, sorted by price and filtered by it', async () => {
    const page = await newPage();
    // euros: 50–100 € holds the lamp (80 €) but not the stool (1 200 kr ≈ 104 €)
    await page.goto('/en/search?sort=price_asc&currency=EUR&min=50&max=100');
    await expect(titles(page)).resolves.toEqual(['Brass table lamp']);
    await expect(page.locator('.listing-card', { hasText: 'Brass table lamp' }).locator('.listing-card-price').textContent()).resolves.toBe('€80');
    // kronor: up to 1 500 kr, dearest first: the stool (1 200 kr), then the lamp (80 € = 920 kr)
    await page.goto('/en/search?sort=price_desc&currency=SEK&max=1500');
    await expect(titles(page)).resolves.toEqual(['Artek stool 60', 'Brass table lamp']);
    await expect(page.locator('.listing-card', { hasText: 'Brass table lamp' }).locator('.listing-card-price').textContent()).resolves.toContain('920');
    // words find it too, cheapest first over the whole shop
    await page.goto('/en/search?q=oak');
    await expect(titles(page)).resolves.toEqual(['Oak dining table']);
    await page.goto('/en/search?sort=price_asc&currency=SEK');
    await expect(titles(page)).resolves.toEqual(['Brass table lamp', 'Artek stool 60', 'Oak dining table']);
  });

  test('the product page: gallery with srcset, thumbnails that switch the photo, delivery, terms, seller, sign in to buy', async () => {
    const page = await newPage();
    await page.goto(`/en/listings/${L.stool}`);
    const main = page.getByTestId('main-photo');
    const srcset = await main.getAttribute('srcset');
    expect(srcset).toMatch(/\/medium\.jpg 800w, .*\/large\.jpg 1600w$/);
    const thumbs = page.getByRole('button', { name: /^Show photo \d$/ });
    await expect(thumbs.count()).resolves.toBe(3);
    const first = await main.getAttribute('src');
    await page.getByRole('button', { name: 'Show photo 2' }).click();
    await expect(page.getByRole('button', { name: 'Show photo 2' }).getAttribute('aria-pressed')).resolves.toBe('true');
    const second = await main.getAttribute('src');
    expect(second).not.toBe(first);
    expect(second).toMatch(/\/medium\.jpg$/);
    // the keyboard: arrow to the third thumbnail
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('button', { name: 'Show photo 3' }).getAttribute('aria-pressed')).resolves.toBe('true');
    expect(await main.getAttribute('src')).not.toBe(second);

    await expect(page.getByTestId('seller').textContent()).resolves.toBe('Lena’s Loppis');
    const delivery = page.getByRole('region', { name: 'Delivery' });
    await expect(delivery.textContent()).resolves.toMatch(/Standard delivery to Sweden\s*SEK\s*79\.00|Standard delivery to Sweden.*79/);
    await expect(delivery.textContent()).resolves.toContain('Pick it up in Stockholm.');
    const details = page.getByRole('region', { name: 'Details' });
    await expect(details.textContent()).resolves.toContain('Finnish furniture since 1935.');
    await expect(details.textContent()).resolves.toContain('Furniture › Chairs');
    await expect(page.getByTestId('buy-area').textContent()).resolves.toContain('Sign in to buy');
    await page.screenshot({ path: path.join(ARTIFACTS, 'product-desktop.png'), fullPage: true });

    // the currency switch is remembered: the home page then shows euros too
    await page.getByLabel('Show prices in').selectOption('EUR');
    await page.getByRole('button', { name: 'Show', exact: true }).click();
    await page.waitForURL(/currency=EUR/);
    await expect(page.getByTestId('price').textContent()).resolves.toContain('€104.35');
    await page.goto('/en');
    await expect(page.locator('.listing-card', { hasText: 'Artek stool 60' }).locator('.listing-card-price').textContent()).resolves.toContain('€104.35');
  });

  test('the product page in Swedish on a phone: one column, Swedish names, no sideways scrolling', async () => {
    const page = await newPage(PHONE);
    await page.goto(`/sv/listings/${L.stool}`);
    const details = page.getByRole('region', { name: 'Detaljer' });
    await expect(details.textContent()).resolves.toContain('Möbler › Stolar');
    await expect(details.textContent()).resolves.toContain('Bra');
    await expect(details.textContent()).resolves.toContain('Finska möbler sedan 1935.');
    await expect(page.getByTestId('buy-area').textContent()).resolves.toContain('Logga in för att köpa');
    // the marketplace's shipping texts in Swedish (option, zone, delivery time, size), none of the English ones
    const delivery = await page.getByRole('region', { name: 'Leverans' }).textContent();
    expect(delivery).toContain('Standardleverans till Sverige');
    expect(delivery).toContain('1–3 dagar');
    expect(delivery).toContain('Fraktstorlek: Litet paket (Ryms i en skokartong)');
    expect(delivery).not.toMatch(/Standard delivery|Sweden|days|Small parcel|shoebox/);
    await expect(horizontalOverflow(page)).resolves.toBeLessThanOrEqual(0);
    // one column: the facts sit below the photo, not beside it
    const photoBox = (await page.getByTestId('main-photo').boundingBox())!;
    const titleBox = (await page.getByRole('heading', { level: 1 }).boundingBox())!;
    expect(titleBox.y).toBeGreaterThan(photoBox.y + photoBox.height - 1);
    await page.screenshot({ path: path.join(ARTIFACTS, 'product-phone.png'), fullPage: true });
  });

  test('a seller lists with three photos, reorders them, publishes and finds it in the shop', async () => {
    const page = await newPage();
    await signUpInBrowser(page, 'en', `maja.${Date.now()}@example.com`);
    await page.goto('/en/account/listings/new');
    // the editor's tab title names the shop too
    await expect.poll(() => page.title()).toBe('New listing · Browser Shop');
    const form = page.getByRole('form', { name: 'New listing' });
    await form.getByLabel('Title').fill('Rya rug, 1960s');
    await form.getByLabel('Description').fill('Hand-knotted wool, 140 × 200 cm.');
    await form.getByLabel('Price', { exact: true }).fill('2,400');
    await form.getByLabel('Country').selectOption('SE');
    await form.getByLabel('City').fill('Uppsala');
    await form.getByLabel('The buyer can pick it up').check();

    // three photos at once: the draft is saved for them, the address becomes the draft's, no reload
    const files = await Promise.all(['#8e3b46', '#3b6e8e', '#8e7a3b'].map(async (c, i) => ({ name: `rug-${i + 1}.jpg`, mimeType: 'image/jpeg', buffer: await photo(c) })));
    await whenHydrated(page, '#photo-files');
    await page.locator('#photo-files').setInputFiles(files);
    await page.waitForURL(/\/en\/account\/listings\/[0-9a-f-]{36}$/);
    const id = page.url().split('/').pop()!;
    await page.locator('.photo-tile[data-status="ready"]').nth(2).waitFor({ timeout: 30_000 });
    const before = await page.locator('.photo-tile[data-image]').evaluateAll((els) => els.map((e) => e.getAttribute('data-image')));
    expect(before).toHaveLength(3);

    // the main photo goes last: two moves with the keyboard focus following the photo
    await page.getByRole('button', { name: 'Move later: Photo 1 of 3' }).click();
    await page.getByRole('status').filter({ hasText: 'Moved to position 2 of 3.' }).waitFor();
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Moved to position 3 of 3.' }).waitFor();
    const after = [before[1], before[2], before[0]];
    await expect(page.locator('.photo-tile[data-image]').evaluateAll((els) => els.map((e) => e.getAttribute('data-image')))).resolves.toEqual(after);
    expect((await myListing(stack, await sessionOf(page), id)).images.map((i) => i.id)).toEqual(after);
    await page.screenshot({ path: path.join(ARTIFACTS, 'seller-desktop.png'), fullPage: true });

    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.waitForURL(new RegExp(`/en/account/listings/${id}\\?published=1$`));
    await expect.poll(() => page.title()).toBe('Rya rug, 1960s · Your listings · Browser Shop');
    await expect(page.getByTestId('publish-notice').textContent()).resolves.toContain('Your listing is on sale.');
    await page.getByRole('link', { name: 'See it in the shop' }).click();
    await page.waitForURL(`**/en/listings/${id}`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Rya rug, 1960s');
    await expect(page.getByTestId('main-photo').getAttribute('src')).resolves.toContain(after[0]);
    await expect(page.getByTestId('price').textContent()).resolves.toContain('2,400');
    await page.goto('/en');
    await page.locator('.listing-card', { hasText: 'Rya rug, 1960s' }).waitFor();
  });

  test('a newcomer buys, messages the seller and receives it; the seller sends it: every final step asks first', async () => {
    const page = await newPage();
    await signUpInBrowser(page, 'en', `nils.${Date.now()}@example.com`);
    await page.goto(`/en/listings/${L.stool}`);
    await page.getByRole('button', { name: 'Buy', exact: true }).click();
    await page.waitForURL(`**/en/checkout/${L.stool}*`);
    const form = page.getByRole('form', { name: 'Checkout' });
    await form.getByLabel('Name', { exact: true }).fill('Nils Newcomer');
    await form.getByLabel('Street address').fill('Sveavägen 1');
    await form.getByLabel('Postal code').fill('111 57');
    await form.getByLabel('City').fill('Stockholm');
    await form.getByLabel('Country').selectOption('SE');
    await page.waitForURL(/country=SE/);
    await form.getByRole('button', { name: 'Place order and pay' }).click();
    await page.waitForURL(/\/en\/orders\/[0-9a-f-]{36}\/pay$/);
    const orderId = /orders\/([0-9a-f-]{36})\/pay/.exec(page.url())![1]!;
    await page.getByRole('button', { name: 'Pay (test payment succeeds)' }).click();
    await page.waitForURL(`**/en/orders/${orderId}`);
    await page.locator('[data-testid="order-state"][data-state="purchased"]').waitFor({ timeout: 30_000 });

    // a question to the seller from the order
    const toSeller = page.getByRole('form', { name: 'Message to the seller' });
    await toSeller.getByLabel('Your message').fill('Could you wrap it well?');
    await toSeller.getByRole('button', { name: 'Send' }).click();
    await page.waitForURL(/\/en\/account\/messages\/[0-9a-f-]{36}/);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Order: Artek stool 60');

    // the seller sends it: asked first, then without tracking on purpose
    const sellerContext = await stack.browser.newContext({ baseURL: stack.storefrontUrl, viewport: { width: 1280, height: 900 } });
    await sellerContext.addCookies([{ name: 'hm_session', value: sellerSession, url: stack.storefrontUrl }]);
    const seller = await sellerContext.newPage();
    try {
      await seller.goto(`/en/orders/${orderId}`);
      await seller.getByText('Mark as sent', { exact: true }).click();
      const send = seller.getByRole('form', { name: 'Mark as sent' });
      await whenHydrated(seller, 'form[aria-label="Mark as sent"] button[type="submit"]');
      await send.getByRole('button', { name: 'Yes, mark as sent' }).click();
      await send.getByRole('alert').filter({ hasText: 'Enter the tracking number, or choose “I send it without tracking”.' }).waitFor();
      await send.getByLabel('I send it without tracking').check();
      await send.getByRole('button', { name: 'Yes, mark as sent' }).click();
      await seller.locator('[data-testid="order-state"][data-state="delivered"]').waitFor({ timeout: 30_000 });
    } finally {
      await sellerContext.close();
    }

    // the buyer confirms receipt only after the question
    await page.goto(`/en/orders/${orderId}`);
    await page.getByText('I have received it', { exact: true }).click();
    await page.getByRole('button', { name: 'Yes, I have received it' }).click();
    await page.locator('[data-testid="order-state"][data-state="received"]').waitFor({ timeout: 30_000 });
  });

  test('in Swedish, bad input keeps every value and says what to fix in Swedish', async () => {
    const page = await newPage(PHONE);
    await signUpInBrowser(page, 'sv', `sven.${Date.now()}@example.com`);
    await page.goto('/sv/account/listings/new');
    const form = page.getByRole('form', { name: 'Ny annons' });
    await form.getByLabel('Titel').fill('x'.repeat(141));
    await form.getByLabel('Beskrivning').fill('Fin stol');
    await form.getByLabel('Pris', { exact: true }).fill('tolv kronor');
    await form.getByLabel('Köparen kan hämta den').check();
    const publish = form.getByRole('button', { name: 'Publicera' });

    // an amount the shop cannot read: nothing is saved, the typed text stays
    await publish.click();
    await expect(form.locator('#listing-price-error').textContent()).resolves.toBe('Ange ett belopp som 250 eller 1 250,50.');
    await expect(form.getByLabel('Pris', { exact: true }).inputValue()).resolves.toBe('tolv kronor');
    await expect(form.getByLabel('Titel').inputValue()).resolves.toBe('x'.repeat(141));
    expect(page.url()).toMatch(/\/sv\/account\/listings\/new$/);

    // the API refuses the title: its 422 shows in Swedish next to the title, values stay
    await form.getByLabel('Pris', { exact: true }).fill('1 250,50');
    await publish.click();
    await expect(form.locator('#listing-title-error').textContent()).resolves.toBe('Använd högst 140 tecken.');
    await expect(form.getByLabel('Pris', { exact: true }).inputValue()).resolves.toBe('1 250,50');
    await expect(form.getByLabel('Beskrivning').inputValue()).resolves.toBe('Fin stol');
    await expect(form.getByLabel('Köparen kan hämta den').isChecked()).resolves.toBe(true);

    // saved, but publishing still needs a photo and a country: said next to each, in Swedish
    await form.getByLabel('Titel').fill('Pinnstol');
    await publish.click();
    // (the draft exists now: its heading, and so the form's name, is its title)
    const draft = page.getByRole('form', { name: 'Pinnstol' });
    await expect(page.locator('#photos-error').textContent()).resolves.toBe('Lägg till minst 1 foto för att publicera (klara nu: 0).');
    await expect(draft.locator('#listing-country-error').textContent()).resolves.toBe('Välj landet där varan finns för att publicera.');
    await expect(draft.getByLabel('Titel').inputValue()).resolves.toBe('Pinnstol');
    await expect(draft.getByLabel('Pris', { exact: true }).inputValue()).resolves.toBe('1 250,50');
    expect(page.url()).toMatch(/\/sv\/account\/listings\/[0-9a-f-]{36}$/);
    await expect(page.getByText('Sparat.', { exact: true }).count()).resolves.toBe(0);
    const text = await page.locator('main').innerText();
    expect(text).not.toMatch(RAW_TEXT);
    await expect(horizontalOverflow(page)).resolves.toBeLessThanOrEqual(0);
    await page.screenshot({ path: path.join(ARTIFACTS, 'seller-phone-problems.png'), fullPage: true });
  });
});

/** The storefront's session cookie, to check with the API what the browser did. */
async function sessionOf(page: Page): Promise<string> {
  const cookie = (await page.context().cookies()).find((c) => c.name === 'hm_session');
  if (!cookie) throw new Error('not signed in');
  return cookie.value;
}
