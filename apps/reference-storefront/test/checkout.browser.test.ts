import { afterAll, beforeAll, describe, expect, onTestFailed, test } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { call, listOnSale, signUp } from './shop-fixtures.js';
import { screenshotOnFailure, startStack, whenHydrated, type Stack } from './stack.js';

/**
 * Issue 12's acceptance walk in a browser: a signed-out shopper signs in from the listing, checks
 * out with shipping, is declined once by the sandbox and pays on the retry; the order page shows
 * `purchased` once the payment's event is handled; the seller marks it sent with a tracking number;
 * the buyer marks it received. And a voucher that covers everything skips payment.
 */
let stack: Stack;
const PASSWORD = 'newcomer password';
const people = { seller: `stina.${Date.now()}@example.com`, buyer: `bo.${Date.now()}@example.com` };
let bench = '';
let vase = '';
let shelf = '';
let sellerToken = '';

beforeAll(async () => {
  stack = await startStack();
  const seller = await signUp(stack, people.seller, 'Stina’s Salvage');
  sellerToken = seller;
  await signUp(stack, people.buyer);
  const place = { country: 'SE', city: 'Stockholm', postal_code: '116 46' };
  bench = await listOnSale(stack, seller, { title: 'Oak bench', price: { amount: 150000, currency: 'SEK' }, location: place, delivery: { pickup: true, shipping: { price: 9900, additional_item_price: 2000 } }, stock: 2 }, ['#7a5230']);
  shelf = await listOnSale(stack, seller, { title: 'Pine shelf', price: { amount: 40000, currency: 'SEK' }, location: place, delivery: { shipping: { price: 9900 } } }, ['#c2a060']);
  vase = await listOnSale(stack, seller, { title: 'Glass vase', price: { amount: 30000, currency: 'SEK' }, location: place, delivery: { pickup: true } }, ['#3a7ca5']);
  await stack.operator.vouchers.create({ marketplace: 'browser-shop', voucher: { code: 'GIFT300', amount: 30000, currency: 'SEK' } });
});
afterAll(() => stack?.stop());

const contexts: BrowserContext[] = [];
afterAll(() => Promise.all(contexts.map((c) => c.close())));
async function newPage(): Promise<Page> {
  const context = await stack.browser.newContext({ baseURL: stack.storefrontUrl, viewport: { width: 1280, height: 900 } });
  contexts.push(context);
  const page = await context.newPage();
  onTestFailed(async ({ task }) => screenshotOnFailure(page, task.name));
  return page;
}

async function signIn(page: Page, email: string) {
  await page.getByLabel('Email address').first().fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

const state = (page: Page) => page.getByTestId('order-state').getAttribute('data-state');
const waitForState = (page: Page, s: string) => page.locator(`[data-testid="order-state"][data-state="${s}"]`).waitFor({ timeout: 30_000 });

describe('buying in a browser', () => {
  let orderId = '';

  test('sign in from the listing → checkout (re-quoted as the address is typed) → declined → paid → the order page shows purchased', async () => {
    const page = await newPage();
    await page.goto(`/en/listings/${bench}`);
    await page.getByRole('link', { name: 'Sign in to buy' }).click();
    await page.waitForURL(/\/en\/auth\/sign-in\?next=/);
    await signIn(page, people.buyer);
    await page.waitForURL(`**/en/listings/${bench}`);

    await page.getByLabel('Quantity').fill('2');
    await page.getByRole('button', { name: 'Buy', exact: true }).click();
    await page.waitForURL(`**/en/checkout/${bench}?quantity=2`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Checkout');
    const form = page.getByRole('form', { name: 'Checkout' });
    await expect(form.getByLabel('How it reaches you').inputValue()).resolves.toBe('shipping');
    // the listing prices its own shipping: first item + the additional price per extra one, as the API quotes it
    const lines = page.getByTestId('line-items');
    await expect(lines.locator('tr[data-code="item"]').textContent()).resolves.toMatch(/Oak bench\s*2\s*SEK\s*3,000$/);
    await expect(lines.locator('tr[data-code="shipping"]').textContent()).resolves.toMatch(/SEK\s*119$/);
    await expect(page.getByTestId('total').textContent()).resolves.toMatch(/SEK\s*3,119$/);

    // a voucher that does not exist: its reason in the shopper's words, nothing placed
    await form.getByLabel('Voucher code').fill('NOPE');
    await form.getByLabel('Voucher code').press('Tab');
    await page.waitForURL(/voucher_code=NOPE/);
    await expect(page.getByTestId('quote-problem').textContent()).resolves.toBe('There is no voucher with this code.');
    // the summary stays, quoted without the voucher; the item is shown with its photo
    await expect(page.getByTestId('total').textContent()).resolves.toMatch(/SEK\s*3,119$/);
    const item = page.getByTestId('checkout-item');
    await expect(item.locator('img').count()).resolves.toBe(1);
    await expect(item.textContent()).resolves.toContain('Oak bench');
    // the listing's own photo (its thumbnail), loaded, not a broken image
    const { images } = await call<{ images: { id: string; urls: { thumb: string } }[] }>(stack, 'GET', `/v1/listings/${bench}`);
    await expect(item.locator('img').getAttribute('src')).resolves.toBe(images[0]!.urls.thumb);
    await expect.poll(() => item.locator('img').evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth > 0)).toBe(true);
    await form.getByLabel('Voucher code').fill('');
    await form.getByLabel('Voucher code').press('Tab');
    await page.waitForURL((u) => !u.search.includes('voucher_code'));

    // placing without an address says what is missing, next to the address
    await form.getByRole('button', { name: 'Place order and pay' }).click();
    await expect(page.locator('#checkout-postal_code-error').textContent()).resolves.toBe('Enter the delivery address.');

    // the buyer's name, address and phone never go into a URL (history, Referer): the re-quote keeps them server-side
    const visited: string[] = [];
    page.on('framenavigated', (frame) => visited.push(frame.url()));
    await form.getByLabel('Name', { exact: true }).fill('Bo Buyer');
    await form.getByLabel('Street address').fill('Götgatan 1');
    await form.getByLabel('Postal code').fill('116 46');
    await form.getByLabel('City').fill('Stockholm');
    await form.getByLabel('Phone').fill('+46 70 123 45 67');
    await form.getByLabel('Country').selectOption('SE');
    await page.waitForURL(/country=SE/);
    // the page re-rendered from the server keeps what was typed
    await expect.poll(() => form.getByLabel('City').inputValue()).toBe('Stockholm');
    await page.reload();
    await expect(form.getByLabel('Street address').inputValue()).resolves.toBe('Götgatan 1');
    await expect(form.getByLabel('Phone').inputValue()).resolves.toBe('+46 70 123 45 67');
    visited.push(page.url());
    expect(visited.length).toBeGreaterThan(0);
    // nor any server-action state (`$ACTION_…` fields of the form) when the country changes
    for (const url of visited) expect(url, url).not.toMatch(/Bo(\+|%20)Buyer|G%C3%B6tgatan|Stockholm|116(\+|%20)46|123(\+|%20)45|[?&](name|line1|line2|postal_code|city|phone)=|\$ACTION|%24ACTION/);
    await form.getByRole('button', { name: 'Place order and pay' }).click();
    await page.waitForURL(/\/en\/orders\/[0-9a-f-]{36}\/pay$/);
    orderId = /orders\/([0-9a-f-]{36})\/pay/.exec(page.url())![1]!;
    expect(page.url()).not.toMatch(/secret/);
    await expect(page.getByTestId('pay-amount').textContent()).resolves.toMatch(/SEK\s*3,119$/);
    await expect(page.getByRole('heading', { name: 'Test payment' }).isVisible()).resolves.toBe(true);

    await page.getByRole('button', { name: 'Decline (test payment fails)' }).click();
    await page.waitForURL(/\/pay\?declined=1$/);
    await page.getByText('The payment was declined.', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Pay (test payment succeeds)' }).click();
    await page.waitForURL(`**/en/orders/${orderId}`);
    // pending_payment until the worker handles the provider's event; the page waits for the order's order.updated event (read from the feed by the storefront's server)
    await waitForState(page, 'purchased');
    await expect(page.getByTestId('order-state').textContent()).resolves.toBe('Paid');
    await expect(page.getByTestId('order-address').textContent()).resolves.toBe('Bo Buyer, Götgatan 1, 116 46, Stockholm, Sweden');
    const history = await page.getByTestId('order-history').locator('li').allTextContents();
    expect(history.map((h) => h.split(' · ').slice(1).join(' · '))).toEqual(['Order placed · Buyer', 'Payment confirmed · Automatic']);
    // "I already have it" (final, pays the seller) asks first, saying what happens; only its "Yes" posts
    await page.getByText('I already have it', { exact: true }).click();
    await expect(page.getByRole('form', { name: 'I already have it' }).textContent()).resolves.toContain('the order is complete at once and the seller is paid');
    await expect(page.getByRole('button', { name: 'Yes, I have it' }).isVisible()).resolves.toBe(true);
    await page.getByText('I already have it', { exact: true }).click();
    await expect(page.getByRole('button', { name: 'Yes, I have it' }).isVisible()).resolves.toBe(false);
    expect(await page.getByTestId('order-state').getAttribute('data-state')).toBe('purchased');
    // the same in Swedish
    await page.goto(`/sv/orders/${orderId}`);
    await page.getByText('Jag har den redan', { exact: true }).click();
    await expect(page.getByRole('form', { name: 'Jag har den redan' }).textContent()).resolves.toContain('beställningen blir klar direkt och säljaren får betalt');
    await expect(page.getByRole('button', { name: 'Ja, jag har den' }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole('table').first().getByText('Det här betalar du').count()).resolves.toBe(1);

    await page.goto('/en/account/orders');
    await expect(page.getByTestId('orders').getByRole('link', { name: 'Oak bench' }).getAttribute('href')).resolves.toBe(`/en/orders/${orderId}`);
  });

  test('the seller marks it sent with a tracking number; the buyer sees it and marks it received', async () => {
    expect(orderId).not.toBe('');
    const seller = await newPage();
    await seller.goto(`/en/orders/${orderId}`);
    await seller.waitForURL(/\/en\/auth\/sign-in\?next=/);
    await signIn(seller, people.seller);
    await seller.waitForURL(`**/en/orders/${orderId}`);
    await expect(seller.getByText('You sold this').isVisible()).resolves.toBe(true);
    // the seller's price table is what the buyer paid, not "What you pay"
    await expect(seller.getByRole('table').first().getByText('What the buyer paid').count()).resolves.toBe(1);
    await expect(seller.getByText('What you pay').count()).resolves.toBe(0);
    // marking sent asks first, saying what happens, and asks for the tracking: in Swedish too
    await seller.goto(`/sv/orders/${orderId}`);
    await seller.getByText('Markera som skickad', { exact: true }).click();
    const skicka = seller.getByRole('form', { name: 'Markera som skickad' });
    await expect(skicka.textContent()).resolves.toContain('Köparen får veta att varan är på väg. Det går inte att ångra');
    await expect(skicka.getByLabel('Jag skickar utan spårning').count()).resolves.toBe(1);
    await expect(skicka.getByRole('button', { name: 'Ja, markera som skickad' }).isVisible()).resolves.toBe(true);
    await expect(seller.getByRole('table').first().getByText('Det här betalade köparen').count()).resolves.toBe(1);
    await seller.goto(`/en/orders/${orderId}`);
    // marking sent asks first and wants the tracking, or "without tracking" ticked
    await seller.getByText('Mark as sent', { exact: true }).click();
    const send = seller.getByRole('form', { name: 'Mark as sent' });
    await expect(send.textContent()).resolves.toContain('The buyer is told the item is on its way. This cannot be undone');
    await whenHydrated(seller, 'form[aria-label="Mark as sent"] button[type="submit"]');
    await send.getByRole('button', { name: 'Yes, mark as sent' }).click();
    await expect(send.getByRole('alert').textContent()).resolves.toBe('Enter the tracking number, or choose “I send it without tracking”.');
    expect(await seller.getByTestId('order-state').getAttribute('data-state')).toBe('purchased');
    await send.getByLabel('Tracking number').fill('JJD0099');
    await send.getByLabel('Carrier').fill('PostNord');
    await send.getByRole('button', { name: 'Yes, mark as sent' }).click();
    await waitForState(seller, 'delivered');
    await expect(seller.getByTestId('tracking').textContent()).resolves.toBe('Tracking numberJJD0099CarrierPostNord');
    await expect(seller.getByRole('form', { name: 'Mark as sent' }).count()).resolves.toBe(0);
    // and may correct the tracking afterwards
    await seller.getByText('Add or correct the tracking', { exact: true }).click();
    const fix = seller.getByRole('form', { name: 'Add or correct the tracking' });
    await expect(fix.getByLabel('Tracking number').inputValue()).resolves.toBe('JJD0099');
    await whenHydrated(seller, 'form[aria-label="Add or correct the tracking"] button[type="submit"]');
    await fix.getByLabel('Carrier').fill('DHL');
    await fix.getByRole('button', { name: 'Save the tracking' }).click();
    await fix.getByRole('status').filter({ hasText: 'The tracking was saved.' }).waitFor();
    await expect.poll(() => seller.getByTestId('tracking').textContent()).toBe('Tracking numberJJD0099CarrierDHL');
    // the sold listing (both units paid for) says so to its seller, not "On sale": in the list and the editor, en and sv
    const row = () => seller.getByTestId('my-listing').filter({ has: seller.getByRole('link', { name: 'Oak bench' }) }).getByTestId('my-listing-status');
    await seller.goto('/en/account/listings');
    await expect(row().textContent()).resolves.toBe('Sold');
    await seller.goto('/sv/account/listings');
    await expect(row().textContent()).resolves.toBe('Såld');
    await seller.goto(`/en/account/listings/${bench}`);
    await expect(seller.getByTestId('listing-status').textContent()).resolves.toBe('Sold');
    await expect(seller.getByText('On sale since').count()).resolves.toBe(0);
    await seller.goto('/en/account/orders?as=seller');
    await expect(seller.getByTestId('orders').locator('td[data-state]').first().textContent()).resolves.toBe('Sent');

    const buyer = contexts[0]!.pages()[0]!;
    await buyer.goto(`/en/orders/${orderId}`);
    await expect(buyer.getByTestId('tracking').textContent()).resolves.toContain('JJD0099');
    await buyer.getByText('I have received it', { exact: true }).click();
    await expect(buyer.getByRole('form', { name: 'I have received it' }).textContent()).resolves.toContain('The order is then complete and the seller is paid.');
    await buyer.getByRole('button', { name: 'Yes, I have received it' }).click();
    await waitForState(buyer, 'received');
    expect(await state(buyer)).toBe('received');
    await expect(buyer.getByRole('region', { name: 'What you can do' }).count()).resolves.toBe(0);
  });

  test('the next checkout starts from the last address; a seller gets no "Place order" on their own listing (en, sv)', async () => {
    const page = contexts[0]!.pages()[0]!;
    await page.goto(`/en/checkout/${shelf}`);
    const form = page.getByRole('form', { name: 'Checkout' });
    await expect(form.getByLabel('Street address').inputValue()).resolves.toBe('Götgatan 1');
    await expect(form.getByLabel('Country').inputValue()).resolves.toBe('SE');
    await expect(form.getByLabel('Postal code').inputValue()).resolves.toBe('116 46');
    await expect(page.getByTestId('total').textContent()).resolves.toMatch(/SEK\s*499$/);

    const seller = await newPage();
    await seller.goto('/en/auth/sign-in');
    await signIn(seller, people.seller);
    await seller.waitForURL('**/en/account');
    await seller.goto(`/en/checkout/${shelf}`);
    await expect(seller.getByTestId('own-listing').textContent()).resolves.toBe('This is your own listing: you cannot buy it.');
    await expect(seller.getByRole('button', { name: 'Place order and pay' }).count()).resolves.toBe(0);
    await seller.goto(`/sv/checkout/${shelf}`);
    await expect(seller.getByTestId('own-listing').textContent()).resolves.toBe('Det här är din egen annons: du kan inte köpa den.');
    // the item's photo and title head the page in Swedish too
    await expect(seller.getByTestId('checkout-item').textContent()).resolves.toContain('Pine shelf');
    await expect(seller.getByTestId('checkout-item').locator('img').count()).resolves.toBe(1);
    // the seller's own last address is not the buyer's: nothing of it on this browser
    await expect(seller.getByLabel('Gatuadress').count()).resolves.toBe(0);
  });

  test('a voucher covering the whole price: "Place order" goes straight to the paid order, no payment page', async () => {
    const page = contexts[0]!.pages()[0]!;
    await page.goto(`/en/listings/${vase}`);
    await page.getByRole('button', { name: 'Buy', exact: true }).click();
    await page.waitForURL(new RegExp(`/en/checkout/${vase}\\??$`));
    const form = page.getByRole('form', { name: 'Checkout' });
    await whenHydrated(page, 'form[aria-label="Checkout"]');
    await form.getByLabel('Voucher code').fill('gift300');
    await form.getByLabel('Voucher code').press('Tab');
    await page.waitForURL(/voucher_code=gift300/);
    await expect(page.getByTestId('line-items').locator('tr[data-code="voucher"]').textContent()).resolves.toMatch(/^Voucher GIFT3001-SEK\s*300$/);
    await expect(page.getByTestId('total').textContent()).resolves.toMatch(/^SEK\s*0$/);
    await form.getByRole('button', { name: 'Place order', exact: true }).click();
    await page.waitForURL(/\/en\/orders\/[0-9a-f-]{36}$/);
    await waitForState(page, 'purchased');
  });

  // before the next test gives the marketplace a shipping table (which a listing's own shipping price then cannot use)
  test('an item the marketplace stores and ships: its seller is told who sends it and gets no seller actions, before and after it is sent (en, sv)', async () => {
    const { site } = await stack.operator.sites.create({ marketplace: 'browser-shop', site: { kind: 'warehouse', name: 'Hall', line1: 'Lagervägen 1', postal_code: '141 75', city: 'Huddinge', country: 'SE', buyer_pickup: false } });
    const chair = await listOnSale(stack, sellerToken, { title: 'Stored chair', price: { amount: 70000, currency: 'SEK' }, location: { country: 'SE', city: 'Stockholm' }, delivery: { shipping: { price: 9900 } } }, ['#5a7a52']);
    await stack.operator.listings.custody({ id: chair, custody: 'stored', site: site.id });
    const buyer = await signUp(stack, `stored.buyer.${Date.now()}@example.com`);
    const placed = await call<{ order: { id: string }; payment: { client_secret: string } }>(stack, 'POST', '/v1/me/orders', {
      session: buyer,
      json: { listing_id: chair, delivery: { method: 'shipping', address: { name: 'Bo Buyer', line1: 'Götgatan 1', postal_code: '116 46', city: 'Stockholm', country: 'SE' } } },
    });
    const id = placed.order.id;
    await call(stack, 'POST', '/v1/test-helpers/payments/confirm', { json: { client_secret: placed.payment.client_secret, outcome: 'succeeded' } });
    await expect.poll(async () => (await call<{ state: string }>(stack, 'GET', `/v1/me/orders/${id}`, { session: buyer })).state, { timeout: 20_000, interval: 250 }).toBe('purchased');

    const context = await stack.browser.newContext({ baseURL: stack.storefrontUrl, viewport: { width: 1280, height: 900 } });
    contexts.push(context);
    await context.addCookies([{ name: 'hm_session', value: sellerToken, url: stack.storefrontUrl }]);
    const seller = await context.newPage();
    onTestFailed(async ({ task }) => screenshotOnFailure(seller, task.name));
    const actions = () => seller.getByRole('region', { name: /What you can do|Det här kan du göra/ });
    await seller.goto(`/en/orders/${id}`);
    await expect(seller.getByText('You sold this').isVisible()).resolves.toBe(true);
    await expect(seller.getByTestId('sent-by-marketplace').textContent()).resolves.toBe('The marketplace sends this item: it is stored with them, so there is nothing for you to send.');
    await expect(actions().locator('form, details').count()).resolves.toBe(0);
    await expect(seller.getByText('Mark as sent', { exact: true }).count()).resolves.toBe(0);
    await seller.goto(`/sv/orders/${id}`);
    await expect(seller.getByTestId('sent-by-marketplace').textContent()).resolves.toBe('Marknadsplatsen skickar den här varan: den förvaras hos dem, så du behöver inte skicka något.');
    await expect(actions().locator('form, details').count()).resolves.toBe(0);
    await expect(seller.getByText('Markera som skickad', { exact: true }).count()).resolves.toBe(0);

    // the team sends it with tracking: the seller reads the tracking but cannot add or correct it
    await stack.operator.orders.transition({ id, transition: 'mark-delivered', data: { tracking_number: 'W77', carrier: 'DHL' } });
    await seller.goto(`/en/orders/${id}`);
    await expect(seller.getByTestId('order-state').getAttribute('data-state')).resolves.toBe('delivered');
    await expect(seller.getByTestId('tracking').textContent()).resolves.toBe('Tracking numberW77CarrierDHL');
    await expect(seller.getByTestId('sent-by-marketplace').count()).resolves.toBe(1);
    await expect(actions().locator('form, details').count()).resolves.toBe(0);
    await expect(seller.getByText('Add or correct the tracking', { exact: true }).count()).resolves.toBe(0);
  });

  test('shipping from the marketplace table with delivery booking: the option changes the quote; the buyer books a delivery time on the order page', async () => {
    await stack.operator.marketplace.update({
      marketplace: 'browser-shop',
      settings: {
        shipping: {
          currency: 'SEK',
          sizes: [{ key: 'small', name: 'Small parcel' }],
          zones: [{ key: 'sthlm', name: 'Stockholm', countries: ['SE'], postal_prefixes: ['1'] }],
          options: [
            { key: 'standard', name: 'Standard delivery' },
            { key: 'express', name: 'Express' },
          ],
          delivery: { standard: { small: { sthlm: 3900 } }, express: { small: { sthlm: 7900 } } },
          booking: { horizon_days: 14, lead_days: 2, per_window: 2, time_zone: 'Europe/Stockholm', weekdays: [1, 2, 3, 4, 5], windows: [{ key: 'am', label: '08–12' }], zones: ['sthlm'] },
        },
      },
    });
    const lamp = await listOnSale(stack, sellerToken, { title: 'Desk lamp', price: { amount: 50000, currency: 'SEK' }, location: { country: 'SE', city: 'Stockholm' }, delivery: { shipping: {} } }, ['#c8a040'], 'small');
    const page = contexts[0]!.pages()[0]!;
    await page.goto(`/en/checkout/${lamp}?country=SE`);
    const form = page.getByRole('form', { name: 'Checkout' });
    await whenHydrated(page, 'form[aria-label="Checkout"]');
    await form.getByLabel('Name', { exact: true }).fill('Bo Buyer');
    await form.getByLabel('Street address').fill('Götgatan 1');
    await form.getByLabel('City').fill('Stockholm');
    await form.getByLabel('Postal code').fill('11646');
    await page.getByTestId('line-items').locator('tr[data-code="shipping"]').filter({ hasText: /SEK\s*39$/ }).waitFor();
    await form.getByLabel('Delivery option').selectOption('express');
    await page.waitForURL(/option=express/);
    await expect(page.getByTestId('line-items').locator('tr[data-code="shipping"]').textContent()).resolves.toMatch(/SEK\s*79$/);
    await expect(page.getByTestId('total').textContent()).resolves.toMatch(/SEK\s*579$/);
    await form.getByRole('button', { name: 'Place order and pay' }).click();
    await page.waitForURL(/\/pay$/);
    await page.getByRole('button', { name: 'Pay (test payment succeeds)' }).click();
    await page.waitForURL(/\/en\/orders\/[0-9a-f-]{36}$/);
    await waitForState(page, 'purchased');
    const booking = page.getByTestId('delivery-booking');
    const slot = booking.getByLabel('Time', { exact: true });
    const first = await slot.locator('option').first().getAttribute('value');
    expect(first).toMatch(/^\d{4}-\d{2}-\d{2}\|am$/);
    await slot.selectOption(first!);
    await booking.getByRole('button', { name: 'Book this time' }).click();
    await booking.getByRole('status').filter({ hasText: 'Done.' }).waitFor();
    await page.reload();
    await expect(page.getByTestId('delivery-booking').textContent()).resolves.toMatch(/Booked: .*08–12/);
  });
});
