import { afterAll, beforeAll, describe, expect, onTestFailed, test } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { screenshotOnFailure, startStack, whenHydrated, type Stack } from './stack.js';

/**
 * The emailed-link flows as a shopper walks them, in Chromium against the running API and
 * storefront: sign up → dev mailbox → confirmation link; emailed sign-in link; password reset.
 */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

const pages: Page[] = [];
async function newPage(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await stack.browser.newContext({ baseURL: stack.storefrontUrl });
  const page = await context.newPage();
  pages.push(page);
  onTestFailed(async ({ task }) => {
    await screenshotOnFailure(page, `${task.name}-${pages.indexOf(page)}`);
  });
  return { context, page };
}

/** Opens the dev mailbox and follows the newest link of that kind to that address (the worker sends within a second or so). */
async function followEmailedLink(page: Page, to: string, template: string) {
  const deadline = Date.now() + 20_000;
  await page.goto(`/en/dev/mailbox?to=${encodeURIComponent(to)}`);
  for (;;) {
    const link = page.locator(`li.mail[data-template="${template}"] a`).first();
    if ((await link.count()) > 0) {
      const href = (await link.getAttribute('href'))!;
      await link.click();
      await page.waitForURL((u) => u.href === href);
      return href;
    }
    if (Date.now() > deadline) throw new Error(`no ${template} email to ${to} in the dev mailbox`);
    await page.waitForTimeout(300);
    await page.reload();
  }
}

const email = `ann.${Date.now()}@example.com`;
const firstPassword = 'first password';
let signedIn: Page;

describe('emailed-link pages in a browser', () => {
  test('sign up → dev mailbox → confirmation link → address confirmed', async () => {
    const { page } = await newPage();
    signedIn = page;
    await page.goto('/en/auth/sign-up');
    await page.getByLabel('Email address').fill(email);
    await page.getByLabel('Password').fill(firstPassword);
    await page.getByLabel('First name').fill('Ann');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL('**/en/account?welcome=1');
    await expect(page.getByTestId('email-status').textContent()).resolves.toBe('Not confirmed yet');
    await expect(page.getByRole('navigation', { name: 'Account' }).textContent()).resolves.toContain('Ann');

    const href = await followEmailedLink(page, email, 'email_confirmation');
    expect(href).toMatch(new RegExp(`^${stack.storefrontUrl}/en/auth/verify-email\\?token=`));
    await expect(page.getByRole('status').textContent()).resolves.toContain('your email address is confirmed');
    await page.getByRole('link', { name: 'Go to your account' }).click();
    await page.waitForURL('**/en/account');
    await expect(page.getByTestId('email-status').textContent()).resolves.toBe('Confirmed');
  });

  test('an address in use: a message in the shopper’s words appears next to the email field', async () => {
    const { page } = await newPage();
    await page.goto('/en/auth/sign-up');
    await page.getByLabel('Email address').fill(email.toUpperCase());
    await page.getByRole('button', { name: 'Create account' }).click();
    const error = page.locator('#create-an-account-email-error');
    await error.waitFor();
    await expect(error.textContent()).resolves.toBe('There is already an account with this address.');
    await expect(page.getByRole('alert').filter({ hasText: 'Sign in, or reset your password' }).count()).resolves.toBe(1);
    await expect(page.getByLabel('Email address').inputValue()).resolves.toBe(email.toUpperCase());
  });

  test('request a sign-in link → follow it → signed in; the same link again says it was used', async () => {
    const { page } = await newPage();
    await page.goto('/en/auth/sign-in');
    const linkForm = page.getByRole('form', { name: 'Or get a sign-in link by email' });
    await linkForm.getByLabel('Email address').fill(email);
    await linkForm.getByRole('button', { name: 'Email me a link' }).click();
    await expect(page.getByRole('status').textContent()).resolves.toContain('sign-in link is on its way');

    const href = await followEmailedLink(page, email, 'sign_in_link');
    expect(href).toMatch(new RegExp(`^${stack.storefrontUrl}/en/auth/sign-in\\?token=`));
    await page.getByRole('button', { name: 'Continue signing in' }).click();
    await page.waitForURL('**/en/account?signed_in=1');
    await expect(page.getByRole('status').first().textContent()).resolves.toBe('You are signed in.');

    const { page: other } = await newPage();
    await other.goto(href);
    await other.getByRole('button', { name: 'Continue signing in' }).click();
    const problem = other.getByRole('alert').filter({ hasText: 'already been used' });
    await problem.waitFor();
    await expect(other.getByRole('button', { name: 'Email me a link' }).count()).resolves.toBe(1);
  });

  test('reset password → old sessions end → sign in with the new password', async () => {
    const { page } = await newPage();
    await page.goto('/en/auth/reset-password');
    await page.getByLabel('Email address').fill(email);
    await page.getByRole('button', { name: 'Email me a reset link' }).click();
    await expect(page.getByRole('status').textContent()).resolves.toContain('reset link is on its way');

    await followEmailedLink(page, email, 'password_reset');
    await page.getByLabel('New password', { exact: true }).fill('short');
    await page.getByRole('button', { name: 'Save new password' }).click();
    await expect(page.locator('#new-password-error').textContent()).resolves.toBe('Use at least 8 characters.');
    await page.getByLabel('New password', { exact: true }).fill('second password');
    await page.getByRole('button', { name: 'Save new password' }).click();
    await expect(page.getByRole('status').textContent()).resolves.toContain('signed out everywhere');

    // the browser signed in at sign-up is signed out now
    await signedIn.goto('/en/account');
    await signedIn.waitForURL('**/en/auth/sign-in?next=/en/account');

    await page.goto('/en/auth/sign-in');
    const form = page.getByRole('form', { name: 'Sign in' });
    // empty: each field says what to enter, once
    await whenHydrated(page, 'form[aria-label="Sign in"] button[type="submit"]');
    await form.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Enter your password.').waitFor();
    await expect(page.getByText('Enter your email address.').count()).resolves.toBe(1);
    await expect(page.getByText('Enter your password.').count()).resolves.toBe(1);
    await expect(page.getByText(/at least 1 char/).count()).resolves.toBe(0);
    await form.getByLabel('Email address').fill(email);
    await form.getByLabel('Password').fill(firstPassword);
    await form.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Wrong email address or password.' }).textContent()).resolves.toBeTruthy();
    await form.getByLabel('Password').fill('second password');
    await form.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/en/account');
    await expect(page.getByTestId('email-status').textContent()).resolves.toBe('Confirmed');
  });

  test('pages speak the language of their prefix; sign out ends the session', async () => {
    const { page } = await newPage();
    await page.goto('/sv/auth/sign-in?next=/sv/account');
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('sv');
    // the language switcher leads to the same page in the other language
    await expect(page.getByRole('navigation', { name: 'Språk' }).getByRole('link', { name: 'English' }).getAttribute('href')).resolves.toBe('/en/auth/sign-in?next=%2Fsv%2Faccount');
    const form = page.getByRole('form', { name: 'Logga in' });
    await whenHydrated(page, 'form[aria-label="Logga in"] button[type="submit"]');
    await form.getByRole('button', { name: 'Logga in' }).click();
    await page.getByText('Fyll i ditt lösenord.').waitFor();
    await expect(page.getByText('Fyll i din e-postadress.').count()).resolves.toBe(1);
    await expect(page.getByText('Fyll i ditt lösenord.').count()).resolves.toBe(1);
    await form.getByLabel('E-postadress').fill(email);
    await form.getByLabel('Lösenord').fill('second password');
    await form.getByRole('button', { name: 'Logga in' }).click();
    await page.waitForURL('**/sv/account');
    await expect(page.getByTestId('email-status').textContent()).resolves.toBe('Bekräftad');
    // at 1280 px, signed in, the header's links (the dev mailbox's too) sit on one row, each on one line: in Swedish and English
    await page.setViewportSize({ width: 1280, height: 800 });
    const navLinks = () => page.locator('.account-nav a').evaluateAll((els) => els.map((e) => ({ text: e.textContent, top: Math.round(e.getBoundingClientRect().top), height: e.getBoundingClientRect().height })));
    for (const [lang, expected] of [['sv', ['Logga ut', 'Utvecklarbrevlåda']], ['en', ['Sign out', 'Dev mailbox']]] as const) {
      if (lang === 'en') await page.goto('/en/account');
      const boxes = await navLinks();
      expect(boxes.map((b) => b.text)).toEqual(expect.arrayContaining([...expected]));
      for (const b of boxes) expect(b.height, b.text ?? '').toBeLessThanOrEqual(48);
      expect(new Set(boxes.map((b) => b.top)).size, lang).toBe(1);
    }
    await page.goto('/sv/account');
    await page.getByRole('link', { name: 'Logga ut' }).click();
    await page.getByRole('button', { name: 'Logga ut' }).click();
    await page.waitForURL((u) => u.pathname === '/sv');
    await page.goto('/sv/account');
    await page.waitForURL('**/sv/auth/sign-in?next=/sv/account');
  });
});
