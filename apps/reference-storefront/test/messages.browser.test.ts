import { afterAll, beforeAll, describe, expect, onTestFailed, test } from 'vitest';
import type { Page } from 'playwright-core';
import { makeShop, type ShopFixture } from './shop-fixture.js';
import { call } from './shop-fixtures.js';
import { screenshotOnFailure, startStack, type Stack } from './stack.js';

/**
 * Messages in a browser: a buyer asks the seller about a listing, the seller answers from their
 * messages page, the buyer sees the answer and the unread count clears; a question to support is
 * answered from the operator console.
 */
let stack: Stack;
let shop: ShopFixture;
beforeAll(async () => {
  stack = await startStack();
  shop = await makeShop(stack);
  // the seller has a public name; the buyers have none (their role stands in)
  await call(stack, 'PATCH', '/v1/me', { session: shop.sellerSession, json: { display_name: 'Sigrid' } });
});
afterAll(() => stack?.stop());

async function page(session?: string): Promise<Page> {
  const context = await stack.browser.newContext({ baseURL: stack.storefrontUrl });
  if (session) await context.addCookies([{ name: 'hm_session', value: session, url: stack.storefrontUrl }]);
  const p = await context.newPage();
  onTestFailed(async ({ task }) => {
    await screenshotOnFailure(p, `${task.name}-${session ? 'seller' : 'buyer'}`);
  });
  return p;
}

async function newBuyer(): Promise<Page> {
  const p = await page();
  await p.goto('/en/auth/sign-up');
  await p.getByLabel('Email address').fill(`asker.${Date.now()}@example.com`);
  await p.getByLabel('Password').fill('messages password');
  await p.getByRole('button', { name: 'Create account' }).click();
  await p.waitForURL('**/en/account?welcome=1');
  return p;
}

const THREAD = /\/en\/account\/messages\/[0-9a-f-]{36}(#latest)?$/;
const bodies = (p: Page) => p.getByTestId('message').locator('.message-body').allTextContents();

describe('messages in a browser', () => {
  test('a buyer asks the seller about a listing; the seller answers from their messages; the buyer reads it and the unread count clears', async () => {
    const buyer = await newBuyer();
    await buyer.goto(`/en/listings/${shop.listingId}`);
    const ask = buyer.getByRole('form', { name: 'Question to the seller' });
    // an empty question is refused next to the box, in words
    await ask.getByRole('button', { name: 'Send question' }).click();
    await expect(ask.locator('.field-error').textContent()).resolves.toBe('Please fill this in.');
    await ask.getByLabel('Your question').fill('Does it come with the cushion?');
    await ask.getByRole('button', { name: 'Send question' }).click();
    await buyer.waitForURL(THREAD);
    const conversationUrl = buyer.url().replace(/#latest$/, '');
    expect(await bodies(buyer)).toEqual(['Does it come with the cushion?']);
    await expect(buyer.getByTestId('message').locator('strong').textContent()).resolves.toBe('You');

    const seller = await page(shop.sellerSession);
    await seller.goto('/en/account/messages');
    const row = seller.getByTestId('conversation').filter({ hasText: 'Does it come with the cushion?' });
    await expect(row.getByTestId('unread').textContent()).resolves.toBe('1 unread');
    // the row says what it is about (the listing's title and photo), not "About a listing"
    await expect(row.getByTestId('conversation-title').textContent()).resolves.toBe('Artek stool 60');
    await expect(row.locator('img.conversation-photo').count()).resolves.toBe(1);
    await row.getByRole('link').click();
    await seller.waitForURL(conversationUrl);
    await expect(seller.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Artek stool 60');
    await expect(seller.getByRole('link', { name: 'About the listing: Artek stool 60' }).getAttribute('href')).resolves.toBe(`/en/listings/${shop.listingId}`);
    const reply = seller.getByRole('form', { name: 'Reply' });
    await reply.getByLabel('Your message').fill('Yes, the cushion is included.');
    await reply.getByRole('button', { name: 'Send' }).click();
    await seller.waitForURL(`${conversationUrl}#latest`);
    await seller.getByText('Yes, the cushion is included.').waitFor();
    // reading it cleared the seller's count
    await seller.goto('/en/account/messages');
    await expect(seller.getByTestId('conversation').filter({ hasText: 'Yes, the cushion is included.' }).getByTestId('unread').count()).resolves.toBe(0);

    await buyer.goto('/en/account/messages');
    const mine = buyer.getByTestId('conversation').filter({ hasText: 'Yes, the cushion is included.' });
    await expect(mine.getByTestId('unread').textContent()).resolves.toBe('1 unread');
    await expect(mine.getByTestId('conversation-title').textContent()).resolves.toBe('Artek stool 60 · with Sigrid');
    await buyer.goto('/sv/account/messages');
    await expect(buyer.getByTestId('conversation').filter({ hasText: 'Yes, the cushion is included.' }).getByTestId('conversation-title').textContent()).resolves.toBe('Artek stool 60 · med Sigrid');
    await buyer.goto('/en/account/messages');
    await mine.getByRole('link').click();
    await buyer.waitForURL(conversationUrl);
    expect(await bodies(buyer)).toEqual(['Does it come with the cushion?', 'Yes, the cushion is included.']);
    await expect(buyer.getByTestId('message').nth(1).locator('strong').textContent()).resolves.toBe('Sigrid');
    await buyer.goto('/en/account/messages');
    await expect(buyer.getByTestId('conversation').filter({ hasText: 'Yes, the cushion is included.' }).getByTestId('unread').count()).resolves.toBe(0);

    // asking again continues the same conversation
    await buyer.goto(`/en/listings/${shop.listingId}`);
    await buyer.getByLabel('Your question').fill('Great, I will buy it.');
    await buyer.getByRole('button', { name: 'Send question' }).click();
    await buyer.waitForURL(THREAD);
    expect(buyer.url().replace(/#latest$/, '')).toBe(conversationUrl);
    expect(await bodies(buyer)).toHaveLength(3);
  });

  test('the seller sees no question box on their own listing', async () => {
    const seller = await page(shop.sellerSession);
    await seller.goto(`/en/listings/${shop.listingId}`);
    await seller.getByText('This is your listing: buyers’ questions appear in your messages.').waitFor();
    await expect(seller.getByRole('form', { name: 'Question to the seller' }).count()).resolves.toBe(0);
  });

  test('on an order’s page the buyer messages the seller; the seller sees it there, unread, and answers from the order', async () => {
    const buyer = await page(shop.buyerSession);
    await buyer.goto(`/en/orders/${shop.paidOrderId}`);
    await buyer.getByRole('heading', { name: 'Message the seller' }).waitFor();
    const toSeller = buyer.getByRole('form', { name: 'Message to the seller' });
    await toSeller.getByLabel('Your message').fill('Could you send it on Monday?');
    await toSeller.getByRole('button', { name: 'Send' }).click();
    await buyer.waitForURL(THREAD);
    const conversationUrl = buyer.url().replace(/#latest$/, '');
    await expect(buyer.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Order: Teak tray');
    await buyer.goto(conversationUrl.replace('/en/', '/sv/'));
    await expect(buyer.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Beställning: Teak tray');
    await expect(buyer.getByText('med Sigrid', { exact: true }).count()).resolves.toBe(1);
    await buyer.goto(conversationUrl);
    await expect(buyer.getByRole('link', { name: 'About order' }).getAttribute('href')).resolves.toBe(`/en/orders/${shop.paidOrderId}`);

    const seller = await page(shop.sellerSession);
    await seller.goto(`/en/orders/${shop.paidOrderId}`);
    const part = seller.locator('section.message-party');
    await expect(part.getByRole('heading', { level: 2 }).textContent()).resolves.toBe('Message the buyer');
    await expect(part.getByTestId('unread').textContent()).resolves.toBe('1 unread');
    await part.getByLabel('Your message').fill('Yes, Monday morning.');
    await part.getByRole('button', { name: 'Send' }).click();
    await seller.waitForURL(conversationUrl + '*');
    expect(await bodies(seller)).toEqual(['Could you send it on Monday?', 'Yes, Monday morning.']);
    await expect(seller.getByTestId('message').first().locator('strong').textContent()).resolves.toBe('Buyer');
  });

  test('a question to support is answered from the console and shown as Support', async () => {
    const buyer = await newBuyer();
    await buyer.goto('/en/account/messages');
    await buyer.getByRole('link', { name: 'Contact support' }).click();
    await buyer.waitForURL('**/en/account/messages/support');
    await buyer.getByLabel('Your message').fill('When do you open on Saturdays?');
    await buyer.getByRole('button', { name: 'Send' }).click();
    await buyer.waitForURL(THREAD);
    const id = buyer.url().replace(/#latest$/, '').split('/').at(-1)!;
    const inbox = await stack.operator.support.list({ marketplace: 'browser-shop', unanswered: true });
    expect(inbox.items.map((c) => c.id)).toContain(id);
    await stack.operator.support.reply({ conversation: id, body: 'From 11 to 18.' });
    await buyer.reload();
    expect(await bodies(buyer)).toEqual(['When do you open on Saturdays?', 'From 11 to 18.']);
    await expect(buyer.locator('.message.from-support strong').textContent()).resolves.toBe('Support');
  });
});
