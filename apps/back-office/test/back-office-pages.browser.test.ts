import path from 'node:path';
import { describe, expect, test } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { whenHydrated } from '../../reference-storefront/test/stack.ts';
import { solidJpeg } from '../../reference-storefront/test/shop-fixture.ts';
import { axeProblems, keyboardProblems, phoneProblems, structureProblems } from '../../reference-storefront/test/a11y.ts';
import { POLL, SHOTS, backOfficeSuite, failureShot, submit } from './back-office.suite.ts';

/**
 * The back office's pages in Chromium (back-office.suite.ts: one stack for the file): an admin edits
 * and publishes the about page (then in the storefront) and uploads an image, adds and deletes a
 * webhook endpoint; and every page at 1280 and 390 px has no serious or critical axe violation, its
 * frame and a skip link, and on a phone no sideways scroll and 44 px targets (screenshots in
 * test-results/a11y/). The team at work: back-office-team.browser.test.ts.
 */
const s = backOfficeSuite();
const { signedIn, keptEndpoint } = s;
/** a webhook endpoint kept for the page checks */
let endpointId: string;

describe('content and webhooks', () => {
  test('an admin edits the about page (a problem at its field), saves, publishes it (in the storefront) and uploads an image', async (ctx) => {
    const context = await signedIn('cleo@team.example', 'admin', { width: 1280, height: 800 });
    const p = await context.newPage();
    try {
      await p.goto(`${s.stack.backOfficeUrl}/content`);
      await p.getByRole('link', { name: /\/about/ }).first().waitFor();
      await p.goto(`${s.stack.backOfficeUrl}/content/pages/about/en`);
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
          await shopTab.goto(`${s.stack.storefrontUrl}/en/pages/about`);
          return shopTab.locator('main').textContent();
        }, POLL)
        .toContain(words);

      // the media library: an image with its alt text, shown as a thumbnail
      await p.goto(`${s.stack.backOfficeUrl}/content/media`);
      const image = await solidJpeg('#2a6f4e', 240, 160);
      await whenHydrated(p, 'form[aria-label="Upload an image"] button[type=submit]');
      await p.getByLabel(/^Image/).setInputFiles({ name: 'green.jpg', mimeType: 'image/jpeg', buffer: image });
      await p.getByLabel('Alt text').fill('A green square');
      await p.getByRole('button', { name: 'Upload' }).click();
      await expect.poll(() => p.locator('main img[alt="A green square"]').count(), POLL).toBe(1);
      // its thumbnail loads (from the API's media route)
      await expect.poll(() => p.locator('main img[alt="A green square"]').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), POLL).toBe(true);
    } catch (e) {
      await failureShot(p, ctx.task.name);
      throw e;
    } finally {
      await context.close();
    }
  });

  test('an admin adds a webhook endpoint (its secret shown once), sees it listed and deletes it', async (ctx) => {
    const context = await signedIn('dan@team.example', 'admin', { width: 1280, height: 800 });
    const p = await context.newPage();
    try {
      await p.goto(`${s.stack.backOfficeUrl}/settings/webhooks`);
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
      await failureShot(p, ctx.task.name);
      throw e;
    } finally {
      await context.close();
    }
    // one kept for the page checks
    endpointId = await keptEndpoint();
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
      const visitor = await s.stack.browser.newContext({ viewport });
      const pages: [string, BrowserContext, string][] = [
        ['sign-in', visitor, '/sign-in'],
        ['invitation', visitor, '/invitations/accept?token=opi_unknown'],
        ['attention', admin, '/'],
        ['listings', admin, '/listings'],
        ['listings on sale', admin, '/listings?status=published'],
        ['listing to review', admin, `/listings/${s.stillPending}`],
        ['orders', admin, '/orders'],
        ['order', admin, `/orders/${s.shop.paidOrderId}`],
        ['support', admin, '/support'],
        ['conversation', admin, `/support/${s.supportId}`],
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
        ['listing, viewer', viewer, `/listings/${s.stillPending}`],
        ['settings, viewer', viewer, '/settings'],
        ['page, viewer', viewer, '/content/pages/about/en'],
      ];
      for (const [name, context, url] of pages) {
        const p = await context.newPage();
        await p.goto(`${s.stack.backOfficeUrl}${url}`);
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
