import { afterAll, beforeAll, describe, expect, onTestFailed, test } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotOnFailure, startStack, type Stack } from './stack.js';

/**
 * The footer's newsletter form as a shopper uses it, in Chromium against the running API, worker and
 * storefront: a bad address is explained next to the field in the page's language, a good one is
 * thanked, a repeat is thanked alike, and the address reaches the contact list once (console export).
 */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

async function newPage(): Promise<Page> {
  const context = await stack.browser.newContext({ baseURL: stack.storefrontUrl });
  const page = await context.newPage();
  onTestFailed(async ({ task }) => {
    await screenshotOnFailure(page, task.name);
  });
  return page;
}

/** Waits until the worker has put every sign-up on the contact list (it polls about once a second). */
async function exported(until: (items: { email: string; contact: unknown }[]) => boolean) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const out = await stack.operator.newsletter.export({ marketplace: 'browser-shop' });
    if (until(out.items)) return out;
    if (Date.now() > deadline) throw new Error(`newsletter export never matched: ${JSON.stringify(out)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const email = `reader.${Date.now()}@example.com`;

describe('newsletter sign-up in the footer', () => {
  test('a bad address is explained next to the field in Swedish; a good one is thanked and joins the list', async () => {
    const page = await newPage();
    await page.goto('/sv/search');
    const footer = page.getByRole('contentinfo');
    await expect(footer.getByRole('heading', { level: 2, name: 'Nyhetsbrev' }).count()).resolves.toBe(1);
    const field = footer.getByLabel('E-post för nyhetsbrevet');
    await field.fill('inte-en-adress');
    await footer.getByRole('button', { name: 'Prenumerera' }).click();
    const error = footer.locator('#newsletter-footer-email-error');
    await error.waitFor();
    await expect(error.textContent()).resolves.toBe('Ange en e-postadress som namn@exempel.se.');
    await expect(field.getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(field.inputValue()).resolves.toBe('inte-en-adress');

    await field.fill(`  ${email}  `);
    await footer.getByRole('button', { name: 'Prenumerera' }).click();
    await footer.getByRole('status').waitFor();
    await expect(footer.getByRole('status').textContent()).resolves.toBe('Tack! Du står på listan; nästa utskick kommer till din inkorg.');
    await expect(footer.locator('#newsletter-footer-email-error').count()).resolves.toBe(0);

    const out = await exported((items) => items.some((i) => i.email === email && i.contact !== null));
    expect(out.items.filter((i) => i.email === email)).toEqual([
      expect.objectContaining({ email, locale: 'sv', source: 'footer', contact: expect.objectContaining({ provider: 'local' }) }),
    ]);
  });

  test('signing up again (another page, another language) is thanked alike and changes nothing', async () => {
    const page = await newPage();
    // below a form with its own email field and button, the footer's are named apart
    await page.goto('/en/auth/sign-in');
    await expect(page.getByLabel('Email address').count()).resolves.toBe(2); // password sign-in and the emailed link
    await expect(page.getByRole('contentinfo').getByLabel('Email address').count()).resolves.toBe(0);
    await page.goto('/en');
    const footer = page.getByRole('contentinfo');
    await footer.getByLabel('Email for the newsletter').fill(email.toUpperCase());
    await footer.getByRole('button', { name: 'Subscribe' }).click();
    await footer.getByRole('status').waitFor();
    await expect(footer.getByRole('status').textContent()).resolves.toBe('Thank you! You are on the list; the next issue comes to your inbox.');
    const out = await stack.operator.newsletter.export({ marketplace: 'browser-shop' });
    expect(out.items.filter((i) => i.email.toLowerCase() === email)).toEqual([expect.objectContaining({ email, locale: 'sv', source: 'footer' })]);
  });
});
