import { beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { whenHydrated } from '../../reference-storefront/test/stack.ts';
import { MARKETPLACE, POLL, TEAM_PASSWORD, backOfficeSuite, failureShot, submit, totp } from './back-office.suite.ts';

/**
 * The team at work in the back office, in Chromium (back-office.suite.ts: one stack for the file): an
 * admin invited from the command line sets a password, turns on two-factor codes, signs out and in
 * again with a code, approves a listing (on sale in the storefront), answers a support question (in
 * the buyer's inbox in the storefront) and resolves a dispute; an admin works through vouchers,
 * rates, the newsletter, payouts, roles, users and a listing; a viewer sees every page without a
 * control that changes something.
 */
const s = backOfficeSuite();
const { cli, signedIn, keptEndpoint } = s;
let page: Page | undefined;
/** a webhook endpoint kept for the viewer's checks */
let endpointId: string;
beforeAll(async () => {
  endpointId = await keptEndpoint();
});

describe('the team at work', () => {
  test('invitation → password → two-factor codes → sign out → sign in with a code → approve, answer, resolve', async (ctx) => {
    try {
      const out = await cli(['operators', 'create', '--marketplace', MARKETPLACE, '--email', 'ada@team.example', '--role', 'admin']);
      const link = /(http\S+token=\S+)/.exec(out)?.[1];
      expect(link, out).toMatch(new RegExp(`^${s.stack.backOfficeUrl}/invitations/accept\\?token=`));
      const context = await s.stack.browser.newContext({ viewport: { width: 1280, height: 800 } });
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
      expect((await shopTab.goto(`${s.stack.storefrontUrl}/en/listings/${s.toApprove}`))!.status()).toBe(404);
      await page.getByRole('link', { name: 'Listings', exact: true }).click();
      await page.getByRole('link', { name: 'Oak sideboard' }).click();
      await expect.poll(() => page!.locator('main img').count(), POLL).toBeGreaterThan(0);
      await submit(page, 'Approve listing', 'Approve');
      // the page shows it on sale (the approve form leaves with the review)
      await expect.poll(() => page!.getByTestId('listing-status').textContent(), POLL).toBe('published');
      expect((await shopTab.goto(`${s.stack.storefrontUrl}/en/listings/${s.toApprove}`))!.status()).toBe(200);
      expect(await shopTab.getByRole('heading', { level: 1 }).textContent()).toBe('Oak sideboard');

      // answer the buyer's support question: in their inbox in the storefront
      await page.goto(`${s.stack.backOfficeUrl}/support?unanswered=true`);
      await page.getByRole('link', { name: 'Where is my tray?' }).click();
      await page.getByLabel('Reply', { exact: true }).fill('It left our warehouse today.');
      await submit(page, 'Reply as the marketplace', 'Send reply');
      await page.getByText('Sent: the user is emailed a notice.').waitFor();
      await context.addCookies([{ name: 'hm_session', value: s.shop.buyerSession, url: s.stack.storefrontUrl }]);
      await shopTab.goto(`${s.stack.storefrontUrl}/en/account/messages/${s.supportId}`);
      await shopTab.getByText('It left our warehouse today.').waitFor();

      // resolve the dispute: not without the confirmation
      await page.goto(`${s.stack.backOfficeUrl}/orders?state=disputed`);
      await page.getByRole('link', { name: s.shop.paidOrderId.slice(0, 8) }).click();
      const resolve = 'Resolve: the buyer keeps it (the seller is paid)';
      await submit(page, resolve, resolve);
      await expect.poll(() => page!.getByRole('form', { name: resolve }).locator('.field-error').textContent(), POLL).toContain('cannot be undone');
      await page.getByRole('form', { name: resolve }).getByLabel('I understand this cannot be undone').check();
      await submit(page, resolve, resolve);
      await expect.poll(() => page!.getByTestId('order-state').textContent(), POLL).toMatch(/^received/);
      await context.close();
    } catch (e) {
      await failureShot(page, ctx.task.name);
      throw e;
    }
  });

  test('an admin creates a voucher, sets a rate, downloads the newsletter, reads the reconciliation, changes roles (not the last admin), creates a user, sizes a listing, sets its custody and follows its seller', async (ctx) => {
    const context = await signedIn('boss@team.example', 'admin', { width: 1280, height: 800 });
    await (await signedIn('val@team.example', 'viewer', { width: 1280, height: 800 })).close();
    const p = await context.newPage();
    const go = async (url: string) => {
      await p.goto(`${s.stack.backOfficeUrl}${url}`);
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
      const csv = await context.request.get(`${s.stack.backOfficeUrl}/newsletter/subscribers.csv`);
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
      const { marketplace } = (await s.stack.operator.marketplace.get({ marketplace: MARKETPLACE })) as { marketplace: Record<string, unknown> };
      const sizes = [{ key: 'small', name: 'Small parcel' }];
      await s.stack.operator.marketplace.update({
        marketplace: MARKETPLACE,
        settings: { shipping: { ...((marketplace.shipping as object) ?? {}), currency: 'SEK', sizes, zones: [{ key: 'se', name: 'Sweden', countries: ['SE'] }], options: [{ key: 'standard', name: 'Standard delivery' }], delivery: { standard: { small: { se: 4900 } } } } } as never,
      });
      await go(`/listings/${s.stillPending}`);
      await p.getByRole('form', { name: 'Set the shipping size' }).getByLabel('Size').selectOption('small');
      await submit(p, 'Set the shipping size', 'Set size');
      await expect.poll(() => p.getByTestId('shipping-size').textContent(), POLL).toBe('Small parcel');

      // custody: collecting at one of the marketplace's sites, picked by name from a select
      const [site] = (await s.stack.operator.sites.list({ marketplace: MARKETPLACE })).items;
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
      await failureShot(p, ctx.task.name.slice(0, 40));
      throw e;
    } finally {
      await context.close();
    }
  });

  test('a viewer reads every page and finds no control that changes anything', async () => {
    const context = await signedIn('vera@team.example', 'viewer', { width: 1280, height: 800 });
    const p = await context.newPage();
    for (const url of ['/', `/listings/${s.stillPending}`, '/listings', `/orders/${s.shop.paidOrderId}`, `/support/${s.supportId}`, '/users', '/settings', '/settings/keys', '/settings/team', '/content', '/content/pages/about/en', '/content/media', '/settings/webhooks', `/settings/webhooks/${endpointId}`, '/vouchers', '/rates', '/newsletter', '/payouts']) {
      await p.goto(`${s.stack.backOfficeUrl}${url}`);
      await p.locator('main h1').waitFor();
      // the only forms in a viewer's page are searches (GET)
      expect(await p.locator('main form:not([method="get"])').count(), url).toBe(0);
    }
    expect(await p.locator('header').textContent()).toContain('Viewer (read only)');
    await context.close();
  });
});
