import { afterAll, beforeAll, describe, expect, onTestFailed, test } from 'vitest';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { screenshotOnFailure, startStack, whenHydrated, type Stack } from './stack.js';

/** The seller's side in a browser: create a draft, upload a photo, publish, see it on sale. */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

async function signedInPage(email: string): Promise<Page> {
  const context = await stack.browser.newContext({ baseURL: stack.storefrontUrl });
  const page = await context.newPage();
  onTestFailed(async ({ task }) => {
    await screenshotOnFailure(page, task.name);
  });
  await page.goto('/en/auth/sign-up');
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password').fill('selling password');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL('**/en/account?welcome=1');
  return page;
}

describe('selling in a browser', () => {
  test('create draft → upload photo → publish → visible as published → found in the shop, priced in EUR, saved', async () => {
    const page = await signedInPage(`seller.${Date.now()}@example.com`);
    await page.getByRole('link', { name: 'Selling' }).click();
    await page.waitForURL('**/en/account/listings');
    await page.getByRole('link', { name: 'New listing' }).click();
    await page.waitForURL('**/en/account/listings/new');

    const form = page.getByRole('form', { name: 'New listing' });
    await form.getByLabel('Title').fill('Teak sideboard');
    await form.getByLabel('Description').fill('Danish, 1960s, two sliding doors.');
    await form.getByLabel('Price', { exact: true }).fill('4500');
    await form.getByLabel('Country').selectOption('SE');
    await form.getByLabel('City').fill('Malmö');
    await form.getByLabel('The buyer can pick it up').check();
    await form.getByRole('button', { name: 'Save draft' }).click();
    // the editor stays (the address becomes the draft's own) and says what happened
    await page.waitForURL(/\/en\/account\/listings\/[0-9a-f-]{36}$/);
    await page.getByRole('status').filter({ hasText: 'Draft saved.' }).waitFor();
    await expect(page.getByTestId('listing-status').textContent()).resolves.toBe('Draft');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Teak sideboard');

    // publishing without a photo says what is missing, next to the photos
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await expect(page.locator('#photos-error').textContent()).resolves.toBe('Add at least 1 photo to publish (ready now: 0).');

    const photo = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: { r: 150, g: 100, b: 50 } } }).jpeg().toBuffer();
    await whenHydrated(page, '#photo-files');
    await page.locator('#photo-files').setInputFiles({ name: 'sideboard.jpg', mimeType: 'image/jpeg', buffer: photo });
    // the worker makes the sizes within a moment; the page shows the photo without a reload
    const ready = page.locator('.photo-tile[data-status="ready"] img');
    await ready.waitFor({ timeout: 20_000 });
    const src = await ready.getAttribute('src');
    expect(src).toMatch(new RegExp(`^${stack.apiUrl}/v1/images/[0-9a-f-]{36}/thumb\\.jpg$`));
    const image = await page.request.get(src!);
    expect(image.headers()['content-type']).toBe('image/jpeg');

    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByTestId('publish-notice').filter({ hasText: 'Your listing is on sale.' }).waitFor();
    await expect(page.getByTestId('listing-status').textContent()).resolves.toBe('On sale');

    await page.getByRole('link', { name: '← All your listings' }).click();
    const row = page.locator('.listing-row', { hasText: 'Teak sideboard' });
    await expect(row.locator('.status').textContent()).resolves.toBe('On sale');
    await expect(row.textContent()).resolves.toContain('4,500');

    // the shop: the home page's newest, search, the listing page in another currency, saving it
    await stack.operator.rates.set({ marketplace: 'browser-shop', date: '2026-01-01', base: 'EUR', rates: { SEK: 11.5 } });
    await page.goto('/en');
    await page.locator('.listing-card', { hasText: 'Teak sideboard' }).waitFor();
    await page.getByRole('search').getByRole('searchbox').fill('teak side');
    await page.getByRole('search').getByRole('searchbox').press('Enter');
    await page.waitForURL('**/en/search?q=teak+side');
    await expect(page.getByTestId('total').textContent()).resolves.toBe('1 listing');
    await page.locator('.listing-card', { hasText: 'Teak sideboard' }).getByRole('link').click();
    await page.waitForURL(/\/en\/listings\/[0-9a-f-]{36}$/);
    await page.getByLabel('Show prices in').selectOption('EUR');
    await page.getByRole('button', { name: 'Show', exact: true }).click();
    await page.waitForURL(/currency=EUR/);
    // the reprice job runs in the worker; the display price converts at today's rate at once
    await expect(page.getByTestId('price').textContent()).resolves.toContain('€391.30');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('button', { name: 'Saved ♥' }).waitFor();
    await page.getByRole('link', { name: 'Saved', exact: true }).click();
    await page.waitForURL('**/en/account/favorites');
    await page.locator('.listing-card', { hasText: 'Teak sideboard' }).waitFor();
  });

  test('a problem shows next to its field (a title over 140 characters); deleting a photo or a draft asks first', async () => {
    const page = await signedInPage(`editor.${Date.now()}@example.com`);
    await page.goto('/en/account/listings/new');
    const form = page.getByRole('form', { name: 'New listing' });
    await form.getByLabel('Title').fill('x'.repeat(141));
    await form.getByRole('button', { name: 'Save draft' }).click();
    const error = form.locator('#listing-title-error');
    await error.waitFor();
    await expect(error.textContent()).resolves.toBe('Use at most 140 characters.');
    // nothing was saved and nothing typed is lost
    await expect(form.getByLabel('Title').inputValue()).resolves.toBe('x'.repeat(141));
    await expect(page.getByText('Saved.', { exact: true }).count()).resolves.toBe(0);
    expect(page.url()).toMatch(/\/en\/account\/listings\/new$/);

    // corrected, it saves; a photo and then the draft are deleted, each only after saying yes
    await form.getByLabel('Title').fill('Wobbly chair');
    await form.getByRole('button', { name: 'Save draft' }).click();
    await page.getByRole('status').filter({ hasText: 'Draft saved.' }).waitFor();
    // this one is dragged and dropped onto the drop zone
    const bytes = (await sharp({ create: { width: 600, height: 600, channels: 3, background: '#445566' } }).jpeg().toBuffer()).toString('base64');
    const dataTransfer = await page.evaluateHandle((b64) => {
      const dt = new DataTransfer();
      dt.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], 'chair.jpg', { type: 'image/jpeg' }));
      return dt;
    }, bytes);
    await page.locator('.dropzone').dispatchEvent('dragover', { dataTransfer });
    await page.locator('.dropzone').dispatchEvent('drop', { dataTransfer });
    await page.locator('.photo-tile[data-status="ready"]').waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Delete photo: Photo 1 of 1' }).click();
    const confirm = page.getByRole('group', { name: 'Delete this photo?' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.locator('.photo-tile[data-image]').count()).resolves.toBe(1);
    await page.getByRole('button', { name: 'Delete photo: Photo 1 of 1' }).click();
    await confirm.getByRole('button', { name: 'Yes' }).click();
    await page.getByRole('status').filter({ hasText: 'Photo deleted.' }).waitFor();
    await expect(page.locator('.photo-tile[data-image]').count()).resolves.toBe(0);

    await page.reload();
    await page.getByText('Delete draft', { exact: true }).click();
    await expect(page.getByText('Delete this draft for good? This cannot be undone.').isVisible()).resolves.toBe(true);
    await page.getByRole('button', { name: 'Yes, delete it' }).click();
    await page.waitForURL('**/en/account/listings');
    await expect(page.locator('.listing-row', { hasText: 'Wobbly chair' }).count()).resolves.toBe(0);
  });

  test('the page a notice links to: ask for a valuation, see the offer, answer with a counter', async () => {
    await stack.operator.marketplace.update({ marketplace: 'browser-shop', settings: { listings: { min_images: 1, require_approval: true, require_category: false, required_terms: [], valuations: true } } });
    const page = await signedInPage(`valued.${Date.now()}@example.com`);
    await page.goto('/en/account/listings/new');
    const form = page.getByRole('form', { name: 'New listing' });
    await form.getByLabel('Title').fill('Brass floor lamp');
    await form.getByLabel('Country').selectOption('SE');
    await form.getByRole('button', { name: 'Save draft' }).click();
    await page.waitForURL(/\/en\/account\/listings\/[0-9a-f-]{36}$/);
    const id = page.url().split('/').pop()!;
    const photo = await sharp({ create: { width: 800, height: 800, channels: 3, background: '#c8a040' } }).jpeg().toBuffer();
    await whenHydrated(page, '#photo-files');
    await page.locator('#photo-files').setInputFiles({ name: 'lamp.jpg', mimeType: 'image/jpeg', buffer: photo });
    await page.locator('.photo-tile[data-status="ready"]').waitFor({ timeout: 20_000 });
    await page.getByLabel('Ask the marketplace to value it (no price needed)').check();
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByText('Waiting for valuation', { exact: true }).waitFor();
    await expect(page.getByTestId('publish-notice').textContent()).resolves.toContain('Sent to the marketplace team for a valuation.');

    await stack.operator.listings.offer({ id, amount: 150000, currency: 'SEK', note: 'A fine lamp.' });
    await page.reload();
    await expect(page.getByTestId('listing-status').textContent()).resolves.toBe('Offer waiting for you');
    await expect(page.getByTestId('offer').textContent()).resolves.toContain('1,500');
    await expect(page.getByRole('region', { name: 'The marketplace offers' }).textContent()).resolves.toContain('A fine lamp.');
    const counter = page.getByRole('form', { name: 'Answer with my price' });
    await counter.getByLabel('Your price instead (SEK)').fill('1800');
    await counter.getByRole('button', { name: 'Answer with my price' }).click();
    await page.getByText('Waiting for approval', { exact: true }).waitFor();
    await expect(page.getByTestId('listing-price').textContent()).resolves.toContain('1,800');
  });
});
