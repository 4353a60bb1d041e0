import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { Secret, TOTP } from 'otpauth';
import { startStack, whenHydrated, type Stack } from '../../reference-storefront/test/stack.ts';
import { client, makeShop, putOnSale, solidJpeg, type Call, type ShopFixture } from '../../reference-storefront/test/shop-fixture.ts';
import { axeProblems, keyboardProblems, phoneProblems, structureProblems } from '../../reference-storefront/test/a11y.ts';

/**
 * The back office in Chromium on the storefront's test stack (API, worker, storefront and back office
 * with `next dev`, one stack for the file): an admin invited from the command line sets a password,
 * turns on two-factor codes, signs out and in again with a code, approves a listing (on sale in the
 * storefront), answers a support question (in the buyer's inbox in the storefront) and resolves a
 * dispute; a viewer sees every page without a control that changes something; and every page at
 * 1280 and 390 px has no serious or critical axe violation, its frame and a skip link, and on a
 * phone no sideways scroll and 44 px targets (screenshots in test-results/a11y/).
 */
const APP_DIR = fileURLToPath(new URL('..', import.meta.url));
const REPO_ROOT = path.resolve(APP_DIR, '../..');
const SHOTS = path.join(APP_DIR, 'test-results', 'a11y');
const MARKETPLACE = 'browser-shop';
const TEAM_PASSWORD = 'a long team password';
/** a server action on `next dev` compiles on first use: a change may take seconds to show */
const POLL = { timeout: 30_000, interval: 250 };

let stack: Stack;
let shop: ShopFixture;
let call: Call;
/** waiting for approval: one the admin approves, one left for the viewer and the page checks */
let toApprove: string;
let stillPending: string;
let supportId: string;
let page: Page | undefined;
/** a webhook endpoint kept for the page checks */
let endpointId: string;

/** `npm run console -- …` on the stack's database, as the team runs it; its output. */
function cli(args: string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile('npm', ['run', '--silent', 'console', '--', ...args], { cwd: REPO_ROOT, env: { ...process.env, DATABASE_URL: stack.databaseUrl, API_URL: stack.apiUrl, BACK_OFFICE_URL: stack.backOfficeUrl! } }, (err, stdout, stderr) =>
      err ? reject(new Error(`console ${args.join(' ')}: ${stderr || err.message}`)) : resolve(stdout),
    ),
  );
}

/** A member of the team made from the console, signed in through the API (no two-factor codes): the session token. */
async function operatorToken(email: string, role: 'admin' | 'viewer'): Promise<string> {
  const { invitation_url } = (await stack.operator.operators.create({ marketplace: MARKETPLACE, email, role })) as { invitation_url: string };
  const res = await fetch(`${stack.apiUrl}/console/v1/invitations/accept`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: new URL(invitation_url).searchParams.get('token'), password: TEAM_PASSWORD }) });
  return ((await res.json()) as { token: string }).token;
}

/** …and a browser context with the app's cookie for them. */
async function signedIn(email: string, role: 'admin' | 'viewer', viewport: { width: number; height: number }): Promise<BrowserContext> {
  const token = await operatorToken(email, role);
  const context = await stack.browser.newContext({ viewport });
  await context.addCookies([{ name: 'hm_back_office', value: token, url: stack.backOfficeUrl! }]);
  return context;
}

const totp = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });

beforeAll(async () => {
  stack = await startStack({ backOffice: true });
  shop = await makeShop(stack);
  call = client(stack);
  // the team approves new listings: two wait for it
  const { marketplace } = (await stack.operator.marketplace.get({ marketplace: MARKETPLACE })) as { marketplace: { listings: Record<string, unknown> } };
  await stack.operator.marketplace.update({ marketplace: MARKETPLACE, settings: { listings: { ...marketplace.listings, require_approval: true } } as never });
  const listing = (title: string) => ({ title, description: 'Oak, 1950s.', price: { amount: 250000, currency: 'SEK' }, location: { country: 'SE', city: 'Uppsala' }, delivery: { pickup: true } });
  toApprove = await putOnSale(call, shop.sellerSession, listing('Oak sideboard'), '#7a5230');
  stillPending = await putOnSale(call, shop.sellerSession, listing('Oak bench'), '#9a7250');
  // the buyer asks support; the paid order is sent and disputed
  ({ conversation: { id: supportId } } = await call<{ conversation: { id: string } }>('POST', '/me/conversations', { session: shop.buyerSession, body: { support: true, body: 'Where is my tray?' } }));
  await call('POST', `/me/orders/${shop.paidOrderId}/transitions/mark-delivered`, { session: shop.sellerSession, body: {} });
  await call('POST', `/me/orders/${shop.paidOrderId}/transitions/dispute`, { session: shop.buyerSession, body: {} });
  // the demo's content pages (home and about, published in every language) for the editor
  expect(await stack.demoPages()).toBe(true);
  mkdirSync(SHOTS, { recursive: true });
});
afterAll(() => stack?.stop());

/** Submits the form named `name` with its button `button`, once React has hydrated it. */
async function submit(p: Page, name: string, button: string) {
  const form = p.getByRole('form', { name });
  await whenHydrated(p, `form[aria-label="${name}"] button[type=submit]`);
  await form.getByRole('button', { name: button }).click();
}

describe('content and webhooks', () => {
  test('an admin edits the about page (a problem at its field), saves, publishes it (in the storefront) and uploads an image', async (ctx) => {
    const context = await signedIn('cleo@team.example', 'admin', { width: 1280, height: 800 });
    const p = await context.newPage();
    try {
      await p.goto(`${stack.backOfficeUrl}/content`);
      await p.getByRole('link', { name: /\/about/ }).first().waitFor();
      await p.goto(`${stack.backOfficeUrl}/content/pages/about/en`);
      const block = p.locator('fieldset[data-block-type="text"]').first();
      const body = block.locator('textarea[name$=".body"]');
      const field = (await body.getAttribute('name'))!;
      expect(field).toMatch(/^blocks\.\d+\.body$/);
      await whenHydrated(p, 'form[aria-label="Edit page"] button[type=submit]');
      // an empty text: the API's problem at `body.page.blocks.N.body`, shown next to that field
      await body.fill('');
      await p.getByRole('button', { name: 'Save draft' }).click();
      await expect.poll(() => p.locator(`[data-field="${field}"] .field-error`).count(), POLL).toBe(1);
      expect(await body.getAttribute('aria-invalid')).toBe('true');
      const words = 'We are a small shop of old oak things, since 2026.';
      await body.fill(words);
      await p.getByRole('button', { name: 'Save draft' }).click();
      await p.getByText('Draft saved.').waitFor({ timeout: 30_000 });
      expect(await p.locator('.field-error').count()).toBe(0);
      await p.reload();
      await expect.poll(() => p.getByTestId('page-status').textContent(), POLL).toBe('published, draft has changes');
      await submit(p, 'Publish page', 'Publish the draft');
      await expect.poll(() => p.getByTestId('page-status').textContent(), POLL).toBe('published');
      const shopTab = await context.newPage();
      await expect
        .poll(async () => {
          await shopTab.goto(`${stack.storefrontUrl}/en/pages/about`);
          return shopTab.locator('main').textContent();
        }, POLL)
        .toContain(words);

      // the media library: an image with its alt text, shown as a thumbnail
      await p.goto(`${stack.backOfficeUrl}/content/media`);
      const image = await solidJpeg('#2a6f4e', 240, 160);
      await whenHydrated(p, 'form[aria-label="Upload an image"] button[type=submit]');
      await p.getByLabel(/^Image/).setInputFiles({ name: 'green.jpg', mimeType: 'image/jpeg', buffer: image });
      await p.getByLabel('Alt text').fill('A green square');
      await p.getByRole('button', { name: 'Upload' }).click();
      await expect.poll(() => p.locator('main img[alt="A green square"]').count(), POLL).toBe(1);
      // its thumbnail loads (from the API's media route)
      await expect.poll(() => p.locator('main img[alt="A green square"]').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), POLL).toBe(true);
    } catch (e) {
      await p.screenshot({ path: path.join(APP_DIR, 'test-results', `${ctx.task.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}.png`), fullPage: true }).catch(() => {});
      throw e;
    } finally {
      await context.close();
    }
  });

  test('an admin adds a webhook endpoint (its secret shown once), sees it listed and deletes it', async (ctx) => {
    const context = await signedIn('dan@team.example', 'admin', { width: 1280, height: 800 });
    const p = await context.newPage();
    try {
      await p.goto(`${stack.backOfficeUrl}/settings/webhooks`);
      const url = 'http://127.0.0.1:9/hooks/orders';
      await p.getByLabel('URL').fill(url);
      await p.getByLabel('Event types (when not every type)').fill('order.updated, no.such_type');
      await submit(p, 'Add a webhook endpoint', 'Add endpoint');
      await expect.poll(() => p.locator('[data-field="events"] .field-error').count(), POLL).toBe(1);
      await p.getByLabel('Event types (when not every type)').fill('order.updated, payout.updated');
      await submit(p, 'Add a webhook endpoint', 'Add endpoint');
      await expect.poll(() => p.getByTestId('webhook-secret').textContent(), POLL).toMatch(/^whsec_/);
      await p.reload();
      const row = p.getByRole('row').filter({ hasText: url });
      await row.waitFor();
      expect(await row.textContent()).toContain('order.updated, payout.updated');
      expect(await row.getByTestId('webhook-status').textContent()).toBe('enabled');
      expect(await p.getByTestId('webhook-secret').count()).toBe(0);
      await row.getByRole('link', { name: url }).click();
      await submit(p, 'Delete endpoint', 'Delete endpoint');
      await expect.poll(() => p.getByRole('form', { name: 'Delete endpoint' }).locator('.field-error').count(), POLL).toBe(1);
      await p.getByLabel('I understand the endpoint and its delivery log go').check();
      await submit(p, 'Delete endpoint', 'Delete endpoint');
      await p.waitForURL('**/settings/webhooks?deleted=1');
      expect(await p.getByRole('row').filter({ hasText: url }).count()).toBe(0);
    } catch (e) {
      await p.screenshot({ path: path.join(APP_DIR, 'test-results', `${ctx.task.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}.png`), fullPage: true }).catch(() => {});
      throw e;
    } finally {
      await context.close();
    }
    // one kept for the viewer's and the page checks
    const res = await fetch(`${stack.apiUrl}/console/v1/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${await operatorToken('eve@team.example', 'admin')}` },
      body: JSON.stringify({ url: 'http://127.0.0.1:9/hooks/all', events: ['*'] }),
    });
    expect(res.status).toBe(201);
    endpointId = ((await res.json()) as { endpoint: { id: string } }).endpoint.id;
  });
});

describe('the team at work', () => {
  test('invitation → password → two-factor codes → sign out → sign in with a code → approve, answer, resolve', async (ctx) => {
    try {
      const out = await cli(['operators', 'create', '--marketplace', MARKETPLACE, '--email', 'ada@team.example', '--role', 'admin']);
      const link = /(http\S+token=\S+)/.exec(out)?.[1];
      expect(link, out).toMatch(new RegExp(`^${stack.backOfficeUrl}/invitations/accept\\?token=`));
      const context = await stack.browser.newContext({ viewport: { width: 1280, height: 800 } });
      page = await context.newPage();

      // the invitation's page: a password, then two-factor enrolment
      await page.goto(link!);
      await page.getByLabel('Password', { exact: true }).fill(TEAM_PASSWORD);
      await page.getByLabel('Password again').fill('another password!');
      await submit(page, 'Set your password', 'Set password and sign in');
      await expect.poll(() => page!.locator('[data-field="password_again"] .field-error').textContent(), POLL).toContain('differ');
      await page.getByLabel('Password', { exact: true }).fill(TEAM_PASSWORD);
      await page.getByLabel('Password again').fill(TEAM_PASSWORD);
      await submit(page, 'Set your password', 'Set password and sign in');
      await page.waitForURL('**/account/two-factor');
      await whenHydrated(page, 'form[aria-label="Start two-factor enrolment"] button');
      await page.getByRole('button', { name: 'Set up two-factor codes' }).click();
      const secret = (await page.getByTestId('totp-secret').textContent())!;
      expect(await page.getByRole('link', { name: /^otpauth:\/\/totp\// }).getAttribute('href')).toContain(`secret=${secret}`);
      await page.getByLabel('Code from your authenticator app').fill(totp(secret).generate());
      await submit(page, 'Confirm two-factor codes', 'Turn on two-factor codes');
      await page.getByText('Two-factor codes are on').first().waitFor();

      // sign out, and in again: the code step, a wrong code shown at its field, then the right one
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL('**/sign-in');
      await page.getByLabel('Marketplace').fill(MARKETPLACE);
      await page.getByLabel('Email').fill('ada@team.example');
      await page.getByLabel('Password').fill(TEAM_PASSWORD);
      await submit(page, 'Sign in', 'Sign in');
      const code = page.getByLabel('Code from your authenticator app');
      await code.fill('000000');
      await submit(page, 'Sign in', 'Sign in');
      await expect.poll(() => page!.locator('[data-field="code"] .field-error').textContent(), POLL).toContain('wrong');
      await page.waitForLoadState('networkidle');
      // the next step's code (the one used to turn them on cannot be used twice); typed again until
      // the field keeps it (React puts the form back to what the last answer holds after it renders)
      const next = totp(secret).generate({ timestamp: Date.now() + 30_000 });
      await expect
        .poll(async () => {
          await page!.getByLabel('Code from your authenticator app').fill(next);
          return page!.getByLabel('Code from your authenticator app').inputValue();
        })
        .toBe(next);
      await submit(page, 'Sign in', 'Sign in');
      await page.getByRole('heading', { level: 1, name: 'Attention' }).waitFor();
      expect(await page.locator('[data-queue="listings_pending_approval"] .count').textContent()).toBe('2');

      // approve a listing from the review queue: on sale in the storefront
      const shopTab = await context.newPage();
      expect((await shopTab.goto(`${stack.storefrontUrl}/en/listings/${toApprove}`))!.status()).toBe(404);
      await page.getByRole('link', { name: 'Listings', exact: true }).click();
      await page.getByRole('link', { name: 'Oak sideboard' }).click();
      await expect.poll(() => page!.locator('main img').count(), POLL).toBeGreaterThan(0);
      await submit(page, 'Approve listing', 'Approve');
      // the page shows it on sale (the approve form leaves with the review)
      await expect.poll(() => page!.getByTestId('listing-status').textContent(), POLL).toBe('published');
      expect((await shopTab.goto(`${stack.storefrontUrl}/en/listings/${toApprove}`))!.status()).toBe(200);
      expect(await shopTab.getByRole('heading', { level: 1 }).textContent()).toBe('Oak sideboard');

      // answer the buyer's support question: in their inbox in the storefront
      await page.goto(`${stack.backOfficeUrl}/support?unanswered=true`);
      await page.getByRole('link', { name: 'Where is my tray?' }).click();
      await page.getByLabel('Reply', { exact: true }).fill('It left our warehouse today.');
      await submit(page, 'Reply as the marketplace', 'Send reply');
      await page.getByText('Sent: the user is emailed a notice.').waitFor();
      await context.addCookies([{ name: 'hm_session', value: shop.buyerSession, url: stack.storefrontUrl }]);
      await shopTab.goto(`${stack.storefrontUrl}/en/account/messages/${supportId}`);
      await shopTab.getByText('It left our warehouse today.').waitFor();

      // resolve the dispute: not without the confirmation
      await page.goto(`${stack.backOfficeUrl}/orders?state=disputed`);
      await page.getByRole('link', { name: shop.paidOrderId.slice(0, 8) }).click();
      const resolve = 'Resolve: the buyer keeps it (the seller is paid)';
      await submit(page, resolve, resolve);
      await expect.poll(() => page!.getByRole('form', { name: resolve }).locator('.field-error').textContent(), POLL).toContain('cannot be undone');
      await page.getByRole('form', { name: resolve }).getByLabel('I understand this cannot be undone').check();
      await submit(page, resolve, resolve);
      await expect.poll(() => page!.getByTestId('order-state').textContent(), POLL).toMatch(/^received/);
      await context.close();
    } catch (e) {
      await page?.screenshot({ path: path.join(APP_DIR, 'test-results', `${ctx.task.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}.png`), fullPage: true }).catch(() => {});
      throw e;
    }
  });

  test('an admin creates a voucher, sets a rate, downloads the newsletter, reads the reconciliation, changes roles (not the last admin), creates a user, sizes a listing, sets its custody and follows its seller', async (ctx) => {
    const context = await signedIn('boss@team.example', 'admin', { width: 1280, height: 800 });
    await (await signedIn('val@team.example', 'viewer', { width: 1280, height: 800 })).close();
    const p = await context.newPage();
    const go = async (url: string) => {
      await p.goto(`${stack.backOfficeUrl}${url}`);
      await p.locator('main h1').waitFor();
    };
    try {
      // a voucher: in the list once created
      await go('/vouchers');
      const voucher = p.getByRole('form', { name: 'Create a voucher' });
      await voucher.getByLabel('Code').fill('WINTER10');
      await voucher.getByLabel('Percent or amount').fill('10');
      await submit(p, 'Create a voucher', 'Create voucher');
      await expect.poll(() => p.locator('[data-voucher="WINTER10"]').count(), POLL).toBe(1);

      // a rate from today: in force at once, exact
      await go('/rates');
      const rates = p.getByRole('form', { name: 'Record rates' });
      await rates.getByLabel('Base currency').selectOption('SEK');
      await rates.getByLabel('Rates').fill('EUR=0.087');
      await submit(p, 'Record rates', 'Record rates');
      await expect.poll(async () => ((await p.locator('[data-rate="SEKEUR"]').count()) > 0 ? await p.locator('[data-rate="SEKEUR"]').textContent() : ''), POLL).toMatch(/^0\.0870*$/);

      // the newsletter's sign-ups: a CSV file through the app (the browser never holds the API token)
      await go('/newsletter');
      expect(await p.getByRole('link', { name: 'Download the sign-ups (CSV)' }).getAttribute('href')).toBe('/newsletter/subscribers.csv');
      const csv = await context.request.get(`${stack.backOfficeUrl}/newsletter/subscribers.csv`);
      expect(csv.status()).toBe(200);
      expect(csv.headers()['content-type']).toMatch(/^text\/csv/);
      expect(csv.headers()['content-disposition']).toMatch(/^attachment; filename="newsletter-subscribers\.csv"/);
      expect((await csv.text()).split('\r\n')[0]).toBe('email,first_name,locale,source,subscribed_at,contact_provider,contact_id,contact_added_at');

      // the reconciliation as a table
      await go('/payouts');
      expect(await p.getByTestId('reconcile-ok').textContent()).toMatch(/settled orders checked/);
      await p.locator('table caption', { hasText: 'does not add up' }).waitFor();

      // roles: a viewer made admin and back; the last admin cannot become a viewer (409 last_admin, said at the form)
      await go('/settings/team');
      const role = (email: string) => p.locator(`[data-role="${email}"]`).textContent();
      const setRole = async (email: string, to: 'admin' | 'viewer') => {
        await p.getByRole('form', { name: `Role of ${email}` }).getByLabel('Role').selectOption(to);
        await submit(p, `Role of ${email}`, 'Change role');
      };
      await setRole('val@team.example', 'admin');
      await expect.poll(() => role('val@team.example'), POLL).toBe('admin');
      await setRole('val@team.example', 'viewer');
      await expect.poll(() => role('val@team.example'), POLL).toBe('viewer');
      await setRole('ada@team.example', 'viewer');
      await expect.poll(() => role('ada@team.example'), POLL).toBe('viewer');
      // every other admin the file's other tests made becomes a viewer first, so boss is the last admin (and back after)
      const otherAdmins = (await p.locator('[data-role]').evaluateAll((els) => els.filter((e) => e.textContent === 'admin').map((e) => e.getAttribute('data-role')!))).filter((e) => e !== 'boss@team.example');
      for (const email of otherAdmins) {
        await setRole(email, 'viewer');
        await expect.poll(() => role(email), POLL).toBe('viewer');
      }
      await setRole('boss@team.example', 'viewer');
      await expect.poll(() => p.getByRole('form', { name: 'Role of boss@team.example' }).getByRole('alert').textContent(), POLL).toContain('last admin');
      expect(await role('boss@team.example')).toBe('admin');
      for (const email of otherAdmins) {
        await setRole(email, 'admin');
        await expect.poll(() => role(email), POLL).toBe('admin');
      }
      await setRole('ada@team.example', 'admin');
      await expect.poll(() => role('ada@team.example'), POLL).toBe('admin');

      // a user: a wrong address said at its field, then created (the welcome email goes out)
      await go('/users');
      const user = p.getByRole('form', { name: 'Create a user' });
      await user.getByLabel('Email').fill('not-an-address');
      await submit(p, 'Create a user', 'Create and send the welcome email');
      await expect.poll(() => user.locator('[data-field="email"] .field-error').textContent(), POLL).toBeTruthy();
      await user.getByLabel('Email').fill('kim@example.com');
      await user.getByLabel('First name (optional)').fill('Kim');
      await submit(p, 'Create a user', 'Create and send the welcome email');
      await p.getByText('Created: the welcome email').waitFor({ timeout: POLL.timeout });
      await go('/users?email=kim@example.com');
      await p.locator('[data-user="kim@example.com"]').waitFor();

      // a listing's shipping size, from the marketplace's shipping table
      const { marketplace } = (await stack.operator.marketplace.get({ marketplace: MARKETPLACE })) as { marketplace: Record<string, unknown> };
      const sizes = [{ key: 'small', name: 'Small parcel' }];
      await stack.operator.marketplace.update({
        marketplace: MARKETPLACE,
        settings: { shipping: { ...((marketplace.shipping as object) ?? {}), currency: 'SEK', sizes, zones: [{ key: 'se', name: 'Sweden', countries: ['SE'] }], options: [{ key: 'standard', name: 'Standard delivery' }], delivery: { standard: { small: { se: 4900 } } } } } as never,
      });
      await go(`/listings/${stillPending}`);
      await p.getByRole('form', { name: 'Set the shipping size' }).getByLabel('Size').selectOption('small');
      await submit(p, 'Set the shipping size', 'Set size');
      await expect.poll(() => p.getByTestId('shipping-size').textContent(), POLL).toBe('Small parcel');

      // custody: collecting at one of the marketplace's sites, picked by name from a select
      const [site] = (await stack.operator.sites.list({ marketplace: MARKETPLACE })).items;
      const custody = p.getByRole('form', { name: 'Set custody' });
      await custody.getByLabel('Who has the item').selectOption('collecting');
      await custody.getByLabel('Site (collecting or stored)').selectOption({ label: `${site!.name}, ${site!.city}` });
      await submit(p, 'Set custody', 'Set custody');
      await expect.poll(() => p.getByTestId('custody').textContent(), POLL).toBe(`collecting at ${site!.name}`);

      // the seller by name and address, linking to the user
      const seller = p.locator('main [data-seller]');
      const sellerEmail = new URL(`http://x${(await seller.getAttribute('href'))!}`).searchParams.get('email')!;
      expect(await p.locator('main').textContent()).toContain(sellerEmail);
      await seller.click();
      await p.locator(`[data-user="${sellerEmail}"]`).waitFor();
    } catch (e) {
      await p.screenshot({ path: path.join(APP_DIR, 'test-results', `${ctx.task.name.slice(0, 40).replace(/[^a-z0-9]+/gi, '-').toLowerCase()}.png`), fullPage: true }).catch(() => {});
      throw e;
    } finally {
      await context.close();
    }
  });

  test('a viewer reads every page and finds no control that changes anything', async () => {
    const context = await signedIn('vera@team.example', 'viewer', { width: 1280, height: 800 });
    const p = await context.newPage();
    for (const url of ['/', `/listings/${stillPending}`, '/listings', `/orders/${shop.paidOrderId}`, `/support/${supportId}`, '/users', '/settings', '/settings/keys', '/settings/team', '/content', '/content/pages/about/en', '/content/media', '/settings/webhooks', `/settings/webhooks/${endpointId}`, '/vouchers', '/rates', '/newsletter', '/payouts']) {
      await p.goto(`${stack.backOfficeUrl}${url}`);
      await p.locator('main h1').waitFor();
      // the only forms in a viewer's page are searches (GET)
      expect(await p.locator('main form:not([method="get"])').count(), url).toBe(0);
    }
    expect(await p.locator('header').textContent()).toContain('Viewer (read only)');
    await context.close();
  });
});

describe('accessibility', () => {
  const SIZES = [
    { name: 'desktop', width: 1280, height: 800 },
    { name: 'phone', width: 390, height: 844 },
  ] as const;

  test('every page at 1280 and 390 px: axe, the frame, focus, and on a phone no sideways scroll and 44 px targets', async () => {
    const problems: string[] = [];
    for (const size of SIZES) {
      const viewport = { width: size.width, height: size.height };
      const admin = await signedIn(`admin.${size.name}@team.example`, 'admin', viewport);
      const viewer = await signedIn(`viewer.${size.name}@team.example`, 'viewer', viewport);
      const visitor = await stack.browser.newContext({ viewport });
      const pages: [string, BrowserContext, string][] = [
        ['sign-in', visitor, '/sign-in'],
        ['invitation', visitor, '/invitations/accept?token=opi_unknown'],
        ['attention', admin, '/'],
        ['listings', admin, '/listings'],
        ['listings on sale', admin, '/listings?status=published'],
        ['listing to review', admin, `/listings/${stillPending}`],
        ['orders', admin, '/orders'],
        ['order', admin, `/orders/${shop.paidOrderId}`],
        ['support', admin, '/support'],
        ['conversation', admin, `/support/${supportId}`],
        ['users', admin, '/users'],
        ['vouchers', admin, '/vouchers'],
        ['rates', admin, '/rates'],
        ['newsletter', admin, '/newsletter'],
        ['payouts', admin, '/payouts'],
        ['payouts, viewer', viewer, '/payouts'],
        ['settings', admin, '/settings'],
        ['api keys', admin, '/settings/keys'],
        ['team', admin, '/settings/team'],
        ['audit trail', admin, '/settings/audit'],
        ['content', admin, '/content'],
        ['page editor', admin, '/content/pages/about/en'],
        ['media library', admin, '/content/media'],
        ['webhooks', admin, '/settings/webhooks'],
        ['webhook endpoint', admin, `/settings/webhooks/${endpointId}`],
        ['two-factor', admin, '/account/two-factor'],
        ['not found', admin, '/listings/01890000-0000-7000-8000-000000000000'],
        ['attention, viewer', viewer, '/'],
        ['listing, viewer', viewer, `/listings/${stillPending}`],
        ['settings, viewer', viewer, '/settings'],
        ['page, viewer', viewer, '/content/pages/about/en'],
      ];
      for (const [name, context, url] of pages) {
        const p = await context.newPage();
        await p.goto(`${stack.backOfficeUrl}${url}`);
        await p.locator('main h1').waitFor();
        const at = (list: string[]) => list.map((x) => `${name} (${size.name}): ${x}`);
        problems.push(...at(await axeProblems(p)));
        problems.push(...at(await structureProblems(p, { lang: 'en', shopName: 'Back office', isHome: url === '/' })));
        if (size.name === 'phone') problems.push(...at(await phoneProblems(p)));
        // `next dev` shows its issues badge on a 404 and it takes the first Tab: the keyboard is checked on the pages themselves
        else if (name !== 'not found') problems.push(...at(await keyboardProblems(p)));
        await p.screenshot({ path: path.join(SHOTS, `${name.replace(/[^a-z0-9]+/gi, '-')}-${size.name}.png`), fullPage: true });
        await p.close();
      }
      await Promise.all([admin.close(), viewer.close(), visitor.close()]);
    }
    expect(problems).toEqual([]);
  }, 900_000);
});
