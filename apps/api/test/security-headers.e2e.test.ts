import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import axeCore from 'axe-core';
import { chromium } from 'playwright-core';
import { requireChromium } from '@hm/db/testing/chromium';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeMarketplace, signUp, startHarness, type Harness } from './harness.js';

/** Headers that keep tokens and personal data out of caches, stop MIME sniffing, and lock /docs down. */
let h: Harness;
let m: Awaited<ReturnType<typeof makeMarketplace>>;
let session: string;
const ARTIFACTS = path.join(fileURLToPath(new URL('..', import.meta.url)), 'test-results');

beforeAll(async () => {
  h = await startHarness();
  m = await makeMarketplace(h, 'headers');
  session = (await signUp(h, m.secret, { email: 'private@example.com', password: 'private-password' })).token;
});
afterAll(() => h.close());

describe('X-Content-Type-Options: nosniff', () => {
  test('on every kind of response', async () => {
    const responses = [
      await h.request({ method: 'GET', url: '/v1/marketplace', key: m.publishable }),
      await h.request({ method: 'GET', url: '/v1/marketplace' }),
      await h.request({ method: 'GET', url: '/v1/nope', key: m.secret }),
      await h.app.inject({ method: 'GET', url: '/v1/openapi.json' }),
      await h.app.inject({ method: 'GET', url: '/v1/images/00000000-0000-7000-8000-000000000000/thumb.jpg' }),
      await h.app.inject({ method: 'GET', url: '/docs' }),
      await h.app.inject({ method: 'GET', url: '/docs/scalar.js' }),
      await h.app.inject({ method: 'GET', url: '/health' }),
      await h.app.inject({ method: 'GET', url: '/elsewhere' }),
      await h.app.inject({ method: 'POST', url: '/trpc/marketplace.get', headers: { 'content-type': 'application/json' }, payload: '{' }),
      await h.app.inject({ method: 'GET', url: '/trpc/marketplace.get', headers: { authorization: `Bearer ${m.secret}` } }),
    ];
    for (const res of responses) expect(res.headers['x-content-type-options'], `${res.statusCode} ${res.body.slice(0, 80)}`).toBe('nosniff');
  });
});

describe('Cache-Control: private, no-store on tokens and personal data', () => {
  test('sign-up, sign-in, /v1/me…, test helpers; also on their errors', async () => {
    const responses = [
      await h.request({ method: 'POST', url: '/v1/users', key: m.secret, payload: { email: 'new@example.com' } }),
      await h.request({ method: 'POST', url: '/v1/sessions', key: m.secret, payload: { email: 'private@example.com', password: 'private-password' } }),
      await h.request({ method: 'POST', url: '/v1/sessions', key: m.secret, payload: { email: 'private@example.com', password: 'wrong-password' } }),
      await h.request({ method: 'GET', url: '/v1/me', key: m.secret, session }),
      await h.request({ method: 'PATCH', url: '/v1/me', key: m.secret, session, payload: { first_name: 'Ada' } }),
      await h.request({ method: 'GET', url: '/v1/me', key: m.secret, session: 'sess_nope' }),
      await h.request({ method: 'GET', url: '/v1/me/listings', key: m.secret, session }),
      await h.request({ method: 'GET', url: '/v1/me/favorites', key: m.secret, session }),
      await h.request({ method: 'GET', url: '/v1/test-helpers/emails', key: m.secret }),
      await h.request({ method: 'GET', url: '/v1/listings', key: m.secret, session }),
      await h.app.inject({ method: 'POST', url: '/trpc/sessions.create', headers: { authorization: `Bearer ${m.secret}`, 'content-type': 'application/json' }, payload: JSON.stringify({ email: 'private@example.com', password: 'private-password' }) }),
    ];
    for (const res of responses) expect(res.headers['cache-control'], `${res.statusCode} ${res.body.slice(0, 80)}`).toBe('private, no-store');
  });

  test('public catalogue reads may sit in a shared cache for a few seconds (per key); images and the document keep their own caching', async () => {
    for (const url of ['/v1/listings', '/v1/marketplace']) {
      const res = await h.request({ method: 'GET', url, key: m.publishable });
      expect(res.headers['cache-control'], url).toBe('public, max-age=5, stale-while-revalidate=60');
      expect(res.headers.vary, url).toBe('Authorization');
    }
    expect((await h.app.inject({ method: 'GET', url: '/v1/openapi.json' })).headers['cache-control']).toBe('no-cache');
  });
});

describe('/docs', () => {
  test('has a Content-Security-Policy that allows only this origin', async () => {
    for (const url of ['/docs', '/docs/problems']) {
      const csp = String((await h.app.inject({ method: 'GET', url })).headers['content-security-policy']);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    }
  });

  test('the reference still renders in Chromium under that policy (nothing it needs is refused)', async () => {
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}/docs`;
    const browser = await chromium.launch({
      executablePath: requireChromium(),
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const violations: string[] = [];
      page.on('console', (msg) => {
        if (/Content Security Policy|Refused to/i.test(msg.text())) violations.push(msg.text());
      });
      await page.addInitScript(`document.addEventListener('securitypolicyviolation', (e) => console.error('Refused to load: ' + e.violatedDirective + ' ' + e.blockedURI));`);
      await page.goto(url, { waitUntil: 'networkidle' });
      await page.getByRole('heading', { name: 'Headless Marketplace API' }).waitFor({ timeout: 30_000 });
      await page.getByText('Get the marketplace').first().waitFor({ timeout: 30_000 });
      // Scalar's own stylesheet applied: the sidebar is laid out beside the content, not above it.
      const sidebar = await page.getByText('Get the marketplace').first().boundingBox();
      const heading = await page.getByRole('heading', { name: 'Headless Marketplace API' }).boundingBox();
      expect(sidebar!.x).toBeLessThan(heading!.x);
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: path.join(ARTIFACTS, 'docs-under-csp.png') });
      // The bundle's one eval is zod's feature probe (`Function('')` inside try/catch), which falls
      // back to plain validation when refused; anything else refused is a broken page.
      expect(violations.filter((v) => v !== 'Refused to load: script-src eval')).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 90_000);

  test('the reference has no serious or critical accessibility violation (axe) at 1280, 390 and 360 px', async () => {
    if (!h.app.server.listening) await h.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}/docs`;
    const browser = await chromium.launch({ executablePath: requireChromium(), args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
    try {
      const found: string[] = [];
      for (const [width, height] of [[1280, 800], [390, 844], [360, 740]] as const) {
        // axe is injected by the test (the page's CSP rightly refuses inline scripts)
        const page = await browser.newPage({ viewport: { width, height }, bypassCSP: true });
        await page.goto(url, { waitUntil: 'networkidle' });
        await page.getByRole('heading', { name: 'Headless Marketplace API' }).waitFor({ timeout: 30_000 });
        await page.addScriptTag({ content: axeCore.source });
        // a string: this package's TypeScript has no DOM types
        const violations = await page.evaluate<string[]>(`(async () => {
          const result = await window.axe.run(document, { resultTypes: ['violations'] });
          return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').flatMap((v) => v.nodes.map((n) => v.id + ' (' + v.impact + ') at ' + n.target.join(' ') + ': ' + (n.failureSummary || '').replace(/\\s+/g, ' ').slice(0, 200)));
        })()`);
        found.push(...violations.map((v) => `${width}px ${v}`));
        await page.close();
      }
      expect(found).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 120_000);
});
