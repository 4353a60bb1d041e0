import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { Secret, TOTP } from 'otpauth';
import { startStack, whenHydrated, type Stack } from '../../reference-storefront/test/stack.ts';
import { client, makeShop, putOnSale, type Call, type ShopFixture } from '../../reference-storefront/test/shop-fixture.ts';

/**
 * Shared by the back office's browser test files: the storefront's test stack with the back office
 * beside it (API, worker, storefront and back office with `next dev`, one stack a file), the shop's
 * fixture with approval on and two listings waiting for it, a support question, a disputed order and
 * the demo's content pages; and the team's ways in (the command line, an operator signed in).
 */
export const APP_DIR = fileURLToPath(new URL('..', import.meta.url));
const REPO_ROOT = path.resolve(APP_DIR, '../..');
export const SHOTS = path.join(APP_DIR, 'test-results', 'a11y');
export const MARKETPLACE = 'browser-shop';
export const TEAM_PASSWORD = 'a long team password';
/** a server action on `next dev` compiles on first use: a change may take seconds to show */
export const POLL = { timeout: 30_000, interval: 250 };

export interface BackOfficeSuite {
  stack: Stack;
  shop: ShopFixture;
  call: Call;
  /** waiting for approval: one the admin approves, one left for the viewer and the page checks */
  toApprove: string;
  stillPending: string;
  supportId: string;
  /** `npm run console -- …` on the stack's database, as the team runs it; its output. */
  cli(args: string[]): Promise<string>;
  /** A member of the team made from the console, signed in through the API (no two-factor codes): the session token. */
  operatorToken(email: string, role: 'admin' | 'viewer'): Promise<string>;
  /** …and a browser context with the app's cookie for them. */
  signedIn(email: string, role: 'admin' | 'viewer', viewport: { width: number; height: number }): Promise<BrowserContext>;
  /** A webhook endpoint made by an admin through the API, kept for the viewer's and the page checks: its id. */
  keptEndpoint(): Promise<string>;
}

/** Registers the stack's beforeAll/afterAll; the fields are filled before the first test. */
export function backOfficeSuite(): BackOfficeSuite {
  const s = {} as BackOfficeSuite;
  s.cli = (args) =>
    new Promise((resolve, reject) =>
      execFile('npm', ['run', '--silent', 'console', '--', ...args], { cwd: REPO_ROOT, env: { ...process.env, DATABASE_URL: s.stack.databaseUrl, API_URL: s.stack.apiUrl, BACK_OFFICE_URL: s.stack.backOfficeUrl! } }, (err, stdout, stderr) =>
        err ? reject(new Error(`console ${args.join(' ')}: ${stderr || err.message}`)) : resolve(stdout),
      ),
    );
  s.operatorToken = async (email, role) => {
    const { invitation_url } = (await s.stack.operator.operators.create({ marketplace: MARKETPLACE, email, role })) as { invitation_url: string };
    const res = await fetch(`${s.stack.apiUrl}/console/v1/invitations/accept`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: new URL(invitation_url).searchParams.get('token'), password: TEAM_PASSWORD }) });
    return ((await res.json()) as { token: string }).token;
  };
  s.signedIn = async (email, role, viewport) => {
    const token = await s.operatorToken(email, role);
    const context = await s.stack.browser.newContext({ viewport });
    await context.addCookies([{ name: 'hm_back_office', value: token, url: s.stack.backOfficeUrl! }]);
    return context;
  };
  s.keptEndpoint = async () => {
    const res = await fetch(`${s.stack.apiUrl}/console/v1/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${await s.operatorToken('eve@team.example', 'admin')}` },
      body: JSON.stringify({ url: 'http://127.0.0.1:9/hooks/all', events: ['*'] }),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { endpoint: { id: string } }).endpoint.id;
  };

  beforeAll(async () => {
    const stack = (s.stack = await startStack({ backOffice: true }));
    const shop = (s.shop = await makeShop(stack));
    const call = (s.call = client(stack));
    // the team approves new listings: two wait for it
    const { marketplace } = (await stack.operator.marketplace.get({ marketplace: MARKETPLACE })) as { marketplace: { listings: Record<string, unknown> } };
    await stack.operator.marketplace.update({ marketplace: MARKETPLACE, settings: { listings: { ...marketplace.listings, require_approval: true } } as never });
    const listing = (title: string) => ({ title, description: 'Oak, 1950s.', price: { amount: 250000, currency: 'SEK' }, location: { country: 'SE', city: 'Uppsala' }, delivery: { pickup: true } });
    s.toApprove = await putOnSale(call, shop.sellerSession, listing('Oak sideboard'), '#7a5230');
    s.stillPending = await putOnSale(call, shop.sellerSession, listing('Oak bench'), '#9a7250');
    // the buyer asks support; the paid order is sent and disputed
    ({ conversation: { id: s.supportId } } = await call<{ conversation: { id: string } }>('POST', '/me/conversations', { session: shop.buyerSession, body: { support: true, body: 'Where is my tray?' } }));
    await call('POST', `/me/orders/${shop.paidOrderId}/transitions/mark-delivered`, { session: shop.sellerSession, body: {} });
    await call('POST', `/me/orders/${shop.paidOrderId}/transitions/dispute`, { session: shop.buyerSession, body: {} });
    // the demo's content pages (home and about, published in every language) for the editor
    expect(await stack.demoPages()).toBe(true);
    mkdirSync(SHOTS, { recursive: true });
  });
  afterAll(() => s.stack?.stop());
  return s;
}

export const totp = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });

/** Submits the form named `name` with its button `button`, once React has hydrated it. */
export async function submit(p: Page, name: string, button: string) {
  const form = p.getByRole('form', { name });
  await whenHydrated(p, `form[aria-label="${name}"] button[type=submit]`);
  await form.getByRole('button', { name: button }).click();
}

/** Keeps a screenshot of the page when a test fails (test-results/<name>.png). */
export async function failureShot(p: Page | undefined, name: string) {
  await p?.screenshot({ path: path.join(APP_DIR, 'test-results', `${name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}.png`), fullPage: true }).catch(() => {});
}
