import { afterAll, beforeAll, describe, expect, onTestFailed, test } from 'vitest';
import type { Page } from 'playwright-core';
import { formatMoney } from '../lib/money';
import { call, listOnSale, signUp, signUpInBrowser } from './shop-fixtures.js';
import { screenshotOnFailure, startStack, type Stack } from './stack.js';

/** A seller's payouts in a browser: open payouts from the account page, finish the sandbox's onboarding, read ready. */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

async function signedInPage(email: string): Promise<Page> {
  const page = await (await stack.browser.newContext({ baseURL: stack.storefrontUrl })).newPage();
  onTestFailed(async ({ task }) => {
    await screenshotOnFailure(page, task.name);
  });
  await signUpInBrowser(page, 'en', email);
  return page;
}

describe('seller payouts in a browser', () => {
  test('account → payouts (not set up) → set up → sandbox onboarding: something missing, then complete → ready; after a sale is received, the order page shows the paid payout', async () => {
    const page = await signedInPage(`payee.${Date.now()}@example.com`);
    await page.getByRole('link', { name: 'Payouts: get paid for your sales' }).click();
    await page.waitForURL('**/en/account/payouts');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Payouts');
    await expect(page.getByTestId('payout-status').textContent()).resolves.toBe('Not set up');

    const form = page.getByRole('form', { name: 'Set up payouts' });
    await form.getByLabel('Country of your bank account').selectOption('SE');
    await form.getByLabel('You sell as').selectOption('individual');
    await form.getByRole('button', { name: 'Set up payouts' }).click();
    await page.waitForURL('**/en/account/payouts/sandbox');

    // the provider wants more first: the payouts page lists what is due
    await page.getByLabel('How the setup ends').selectOption('action_required');
    await page.getByRole('button', { name: 'Finish setup' }).click();
    await page.waitForURL('**/en/account/payouts?updated=1');
    await expect(page.getByTestId('payout-status').textContent()).resolves.toBe('Something is needed');
    // in plain words, never the provider's code; and in the page's language
    await expect(page.getByTestId('payout-due').textContent()).resolves.toBe('Add the bank account your money is paid to');
    await page.goto(`${stack.storefrontUrl}/sv/account/payouts`);
    await expect(page.getByTestId('payout-due').textContent()).resolves.toBe('Lägg till bankkontot som pengarna betalas ut till');
    await page.goto(`${stack.storefrontUrl}/en/account/payouts`);

    await page.getByRole('button', { name: 'Continue setup' }).click();
    await page.waitForURL('**/en/account/payouts/sandbox');
    await page.getByLabel('How the setup ends').selectOption('ready');
    await page.getByRole('button', { name: 'Finish setup' }).click();
    await page.waitForURL('**/en/account/payouts?updated=1');
    await page.getByRole('status').filter({ hasText: 'Your payout setup was updated.' }).waitFor();
    await expect(page.getByTestId('payout-status').textContent()).resolves.toBe('Ready: you will be paid');
    // nothing left to set up
    expect(await page.getByRole('button', { name: /Set up payouts|Continue setup/ }).count()).toBe(0);

    // a sale, driven through the API as a buyer and the provider would: placed, paid, received
    const seller = (await page.context().cookies()).find((c) => c.name === 'hm_session')!.value;
    const listing = await listOnSale(stack, seller, { title: 'Oak stool', description: 'Solid oak, 1970s.', price: { amount: 50_000, currency: 'SEK' }, location: { country: 'SE', city: 'Lund' }, delivery: { pickup: true } }, ['#a07050']);
    const buyer = await signUp(stack, `stool.buyer.${Date.now()}@example.com`);
    const placed = await call<{ order: { id: string }; payment: { client_secret: string } }>(stack, 'POST', '/v1/me/orders', { session: buyer, json: { listing_id: listing, delivery: { method: 'pickup' } } });
    const orderId = placed.order.id;
    await call(stack, 'POST', '/v1/test-helpers/payments/confirm', { json: { client_secret: placed.payment.client_secret, outcome: 'succeeded' } });
    const orderAs = (session: string) => call<{ state: string; payout?: { status: string; amount: number } }>(stack, 'GET', `/v1/me/orders/${orderId}`, { session });
    await expect.poll(async () => (await orderAs(buyer)).state, { timeout: 20_000, interval: 250 }).toBe('purchased');
    await call(stack, 'POST', `/v1/me/orders/${orderId}/transitions/mark-received-early`, { session: buyer, json: {} });
    // the worker's pay-seller job pays the ready seller
    await expect.poll(async () => (await orderAs(seller)).payout?.status, { timeout: 20_000, interval: 250 }).toBe('paid');
    const { amount } = (await orderAs(seller)).payout!;

    await page.goto(`/en/orders/${orderId}`);
    const breakdown = page.getByTestId('payout-breakdown');
    await breakdown.getByRole('heading', { name: 'Your payout' }).waitFor();
    await expect(page.getByTestId('payout-breakdown-status').textContent()).resolves.toBe('Paid');
    await expect(breakdown.locator('strong').textContent()).resolves.toBe(formatMoney({ amount, currency: 'SEK' }, 'en'));
  });
});
