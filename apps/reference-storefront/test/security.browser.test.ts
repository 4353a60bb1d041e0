import { request as httpRequest } from 'node:http';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, onTestFailed, test } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { listOnSale, signUp } from './shop-fixtures.js';
import { screenshotOnFailure, startStack, whenHydrated, type Stack } from './stack.js';

/**
 * The shop as an attacker meets it (issue 32): security headers on every page and a CSP the pages
 * work under, no framing, the dev mailbox only for a browser on this machine, redirects that stay
 * on the shop whatever a form posts, the photo route's origin check, and the shopper's address
 * passed to the API so one source cannot lock out many accounts.
 *
 * The storefront listens on every interface. The machine's first non-loopback address (when it has
 * one) is the trusted proxy (STOREFRONT_TRUSTED_PROXIES): requests from it may say who the client
 * is; from loopback such headers are dropped.
 */
const lan = Object.values(networkInterfaces())
  .flat()
  .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
let stack: Stack;
let port = 0;

beforeAll(async () => {
  stack = await startStack({ host: '0.0.0.0', env: { STOREFRONT_DEV_MAILBOX: 'loopback', ...(lan ? { STOREFRONT_TRUSTED_PROXIES: lan } : {}) } });
  port = Number(new URL(stack.storefrontUrl).port);
});
afterAll(() => stack?.stop());

const contexts: BrowserContext[] = [];
afterAll(() => Promise.all(contexts.map((c) => c.close())));
async function newPage(session?: string): Promise<Page> {
  const context = await stack.browser.newContext({ baseURL: stack.storefrontUrl });
  contexts.push(context);
  if (session) await context.addCookies([{ name: 'hm_session', value: session, url: stack.storefrontUrl }]);
  const page = await context.newPage();
  onTestFailed(async ({ task }) => screenshotOnFailure(page, task.name));
  return page;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw HTTP request (any Host header, from loopback or the machine's other address), redirects not followed. */
function raw(path: string, opts: { via?: string; method?: string; headers?: Record<string, string>; body?: Buffer } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: opts.via ?? '127.0.0.1', port, path, method: opts.method ?? 'GET', headers: { host: `localhost:${port}`, ...opts.headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

const PAGES = ['/en', '/en/auth/sign-in', '/en/auth/sign-up', '/en/account', '/en/search?q=lamp', '/en/no-such-page', '/en/dev/mailbox', '/sv/auth/reset-password'];

describe('security headers', () => {
  test.each(PAGES)('%s: CSP with a nonce and frame-ancestors none, X-Frame-Options, nosniff, Referrer-Policy; no HSTS over plain http', async (path) => {
    const res = await raw(path);
    expect(res.status, path).toBeLessThan(500);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'self'");
    expect(csp).toContain("form-action 'self'");
    const script = /script-src ([^;]+)/.exec(csp)![1]!;
    expect(script).toMatch(/'nonce-[A-Za-z0-9+/=]{20,}'/);
    expect(script).toContain("'strict-dynamic'");
    expect(script).not.toContain("'unsafe-inline'");
    expect(csp).toContain("frame-src 'none'"); // no Stripe key on this stack: nothing may be framed
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(res.headers['strict-transport-security']).toBeUndefined();
    if (res.status === 200 || res.status === 404) {
      // Next puts the response's nonce on its scripts
      const nonce = /'nonce-([^']+)'/.exec(script)![1]!;
      expect(res.body).toContain(`nonce="${nonce}"`);
    }
  });

  test('a fresh nonce per response', async () => {
    const nonces = await Promise.all([raw('/en/auth/sign-in'), raw('/en/auth/sign-in')]).then((r) => r.map((x) => /'nonce-([^']+)'/.exec(String(x.headers['content-security-policy']))![1]));
    expect(nonces[0]).not.toBe(nonces[1]);
  });

  test('static files: X-Frame-Options, nosniff, Referrer-Policy', async () => {
    const res = await raw('/icon.svg');
    expect(res.status).toBe(200);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    // browsers ask for /favicon.ico whatever the page says: an icon, not a 404
    const favicon = await raw('/favicon.ico');
    expect(favicon.status).toBe(200);
    expect(favicon.headers['content-type']).toMatch(/^image\/(x-icon|vnd\.microsoft\.icon)/);
    expect(favicon.headers['x-content-type-options']).toBe('nosniff');
  });

  test.skipIf(!lan)('HSTS when a trusted proxy says the shop was asked over https; the same header from anyone else is ignored', async () => {
    const viaProxy = await raw('/en/auth/sign-in', { via: lan, headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': '198.51.100.9' } });
    expect(viaProxy.headers['strict-transport-security']).toBe('max-age=31536000');
    const spoofed = await raw('/en/auth/sign-in', { headers: { 'x-forwarded-proto': 'https' } });
    expect(spoofed.headers['strict-transport-security']).toBeUndefined();
  });

  test('in Chromium the pages work under the CSP (no violations, hydrated) and no other site can frame them', async () => {
    const page = await newPage();
    const violations: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
    });
    for (const path of ['/en', '/en/auth/sign-in', '/en/search?q=lamp']) {
      await page.goto(path);
      await whenHydrated(page, 'form[role="search"] input');
    }
    await page.goto('/en/auth/sign-in');
    await whenHydrated(page, 'form[aria-label="Sign in"]');
    expect(violations).toEqual([]);

    // a page of another origin framing the account page (clickjacking): refused by the browser
    const framer = await newPage();
    const refused: string[] = [];
    framer.on('console', (m) => refused.push(m.text()));
    await framer.setContent(`<iframe src="${stack.storefrontUrl}/en/account" width="800" height="600"></iframe>`);
    await expect.poll(() => refused.some((t) => /frame-ancestors 'none'|X-Frame-Options/.test(t)), { timeout: 20_000 }).toBe(true);
    // the frame shows the browser's error page, none of the shop
    const framed = framer.frames().find((f) => f !== framer.mainFrame());
    expect(await framed?.locator('a.skip-link, form').count().catch(() => 0)).toBe(0);
  });
});

describe('the dev mailbox (STOREFRONT_DEV_MAILBOX=loopback)', () => {
  test('open to a browser on this machine, linked from the header', async () => {
    const res = await raw('/en/dev/mailbox');
    expect(res.status).toBe(200);
    expect(res.body).toContain('<h1>Dev mailbox</h1>');
    expect((await raw('/en')).body).toContain('href="/en/dev/mailbox"');
    // in a browser at 1280 px the header's "Dev mailbox" stays on one line, beside the other links
    const page = await newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/en');
    const links = await page.locator('.account-nav a').evaluateAll((els) => els.map((e) => ({ text: e.textContent, top: Math.round(e.getBoundingClientRect().top), height: e.getBoundingClientRect().height })));
    expect(links.map((l) => l.text)).toContain('Dev mailbox');
    for (const l of links) expect(l.height, l.text ?? '').toBeLessThanOrEqual(48);
    expect(new Set(links.map((l) => l.top)).size).toBe(1);
  });

  test.skipIf(!lan)('from another address (the shop listening on 0.0.0.0): 404, and no link', async () => {
    const res = await raw('/en/dev/mailbox', { via: lan });
    expect(res.status).toBe(404);
    expect(res.body).not.toContain('<h1>Dev mailbox</h1>');
    expect((await raw('/en', { via: lan })).body).not.toContain('/en/dev/mailbox');
    // a trusted proxy forwarding a visitor from elsewhere: still 404
    expect((await raw('/en/dev/mailbox', { via: lan, headers: { 'x-forwarded-for': '198.51.100.9' } })).status).toBe(404);
  });

  test('through an untrusted proxy on this machine (forwarding headers), or under another host name (DNS rebinding): 404', async () => {
    expect((await raw('/en/dev/mailbox', { headers: { 'x-forwarded-for': '127.0.0.1' } })).status).toBe(404);
    expect((await raw('/en/dev/mailbox', { headers: { forwarded: 'for=127.0.0.1' } })).status).toBe(404);
    expect((await raw('/en/dev/mailbox', { headers: { host: `evil.example:${port}` } })).status).toBe(404);
    // the storefront's own client-address header cannot be sent from outside
    if (lan) expect((await raw('/en/dev/mailbox', { via: lan, headers: { 'x-shop-client-ip': '127.0.0.1' } })).status).toBe(404);
  });
});

describe('the photo upload route checks where a post comes from', () => {
  const url = '/en/account/listings/00000000-0000-4000-8000-000000000000/photos';
  const post = (headers: Record<string, string>, via?: string) => raw(url, { method: 'POST', via, headers: { 'content-type': 'image/jpeg', ...headers }, body: Buffer.from('x') });

  test('Origin: null → 403 (not 500); no Origin → 403', async () => {
    const res = await post({ origin: 'null' });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body).message).toEqual(expect.any(String));
    expect((await post({})).status).toBe(403);
  });

  test('X-Forwarded-Host from a client is not believed: a foreign Origin naming it → 403', async () => {
    expect((await post({ origin: 'http://evil.example', 'x-forwarded-host': 'evil.example' })).status).toBe(403);
    // the shop's own origin passes the check (then: not signed in)
    expect((await post({ origin: `http://localhost:${port}` })).status).toBe(401);
  });

  test.skipIf(!lan)('from the trusted proxy, X-Forwarded-Host names the public host', async () => {
    expect((await post({ origin: 'https://shop.example', 'x-forwarded-host': 'shop.example', 'x-forwarded-proto': 'https' }, lan)).status).toBe(401);
    expect((await post({ origin: 'https://evil.example', 'x-forwarded-host': 'shop.example' }, lan)).status).toBe(403);
  });
});

describe('redirects built from posted fields stay on the shop', () => {
  test('a posted lang of "/evil.example" (sign-out) lands on the shop', async () => {
    const page = await newPage();
    await page.goto('/en/auth/sign-out');
    await whenHydrated(page, 'main form button');
    await page.locator('main form input[name="lang"]').evaluate((el) => ((el as HTMLInputElement).value = '/evil.example'));
    await page.locator('main form button[type="submit"]').click();
    await page.waitForURL((u) => u.pathname === '/en' || u.host !== `localhost:${port}`);
    expect(new URL(page.url()).host).toBe(`localhost:${port}`);
    expect(new URL(page.url()).pathname).toBe('/en');
  });

  test('a posted back of "https://evil.example/phish" (save a listing) goes back to the listing', async () => {
    const seller = await signUp(stack, `sec-seller.${Date.now()}@example.com`, 'Sec Seller');
    const buyer = await signUp(stack, `sec-buyer.${Date.now()}@example.com`);
    const id = await listOnSale(stack, seller, { title: 'Brass lamp', price: { amount: 40000, currency: 'SEK' }, location: { country: 'SE', city: 'Stockholm' }, delivery: { pickup: true } }, ['#b08d57']);
    const page = await newPage(buyer);
    await page.goto(`/en/listings/${id}`);
    const save = page.locator('form:has(button.favorite)');
    await whenHydrated(page, 'button.favorite');
    await save.locator('input[name="back"]').evaluate((el) => ((el as HTMLInputElement).value = 'https://evil.example/phish'));
    await save.locator('input[name="lang"]').evaluate((el) => ((el as HTMLInputElement).value = '/evil.example'));
    await save.getByRole('button').click();
    await page.locator('button.favorite[aria-pressed="true"]').waitFor();
    expect(new URL(page.url()).host).toBe(`localhost:${port}`);
    expect(new URL(page.url()).pathname).toBe(`/en/listings/${id}`);
  });
});

// Last: it pauses password sign-in from 127.0.0.1 on this stack's API for 15 minutes.
describe('the shopper’s address reaches the API: one source cannot lock out many accounts', () => {
  test('10 wrong passwords pause one account (the shopper is told what to do); 30 from one address pause every sign-in from it', async () => {
    const page = await newPage();
    await page.goto('/en/auth/sign-in');
    const form = page.getByRole('form', { name: 'Sign in' });
    await whenHydrated(page, 'form[aria-label="Sign in"] button');
    const key = form.locator('input[name="idempotency_key"]');
    /** One submission; returns once the form has its answer and a fresh Idempotency-Key (else the next would be a replay). */
    const attempt = async (email: string) => {
      await form.getByLabel('Email address').fill(email);
      await form.getByLabel('Password').fill('wrong password');
      const used = await key.inputValue();
      const answered = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().includes('/en/auth/sign-in'));
      await form.getByRole('button', { name: 'Sign in', exact: true }).click();
      await answered;
      await expect.poll(() => key.inputValue()).not.toBe(used);
      return (await form.getByRole('alert').textContent()) ?? '';
    };
    const victim = `victim.${Date.now()}@example.com`;
    await signUp(stack, victim);
    for (let i = 1; i <= 10; i++) expect(await attempt(victim), `attempt ${i}`).toContain('Wrong email address or password.');
    const locked = await attempt(victim);
    expect(locked).toMatch(/^Signing in with a password is paused for 1[45] minutes after too many wrong attempts\. Wait and try again, get a sign-in link by email below, or reset your password\./);
    // 20 more failures on other addresses: the address's 30
    for (let i = 0; i < 20; i++) expect(await attempt(`spray${i}.${Date.now()}@example.com`)).toContain('Wrong email address or password.');
    const fresh = `untouched.${Date.now()}@example.com`;
    await signUp(stack, fresh);
    expect(await attempt(fresh)).toContain('Signing in with a password is paused');
    // that account itself is not locked: from elsewhere (no client address), the right password works
    const direct = await fetch(`${stack.apiUrl}/v1/sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.secretKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: fresh, password: 'newcomer password' }),
    });
    expect(direct.status).toBe(201);
  });
});
