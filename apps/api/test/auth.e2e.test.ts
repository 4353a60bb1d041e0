import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeCatalog, makeMarketplace, startHarness, type Harness } from './harness.js';

/** Every public data endpoint the foundation serves (auth K: secret or publishable key). */
const PUBLIC_ENDPOINTS = ['/v1/marketplace', '/v1/locations', '/v1/categories', '/v1/catalog-terms?kind=brand', '/v1/catalog-terms/brand/artek'];

describe('test deployment', () => {
  let h: Harness;
  let keys: { secret: string; publishable: string };
  let revoked: string;
  beforeAll(async () => {
    h = await startHarness({ mode: 'test' });
    keys = await makeCatalog(h);
    revoked = (await h.console.keys.create({ marketplace: 'shop', kind: 'secret' })).token;
    await h.console.keys.revoke({ key: revoked });
  });
  afterAll(() => h.close());

  test.each(PUBLIC_ENDPOINTS)('%s: secret and publishable test keys both work', async (url) => {
    for (const key of [keys.secret, keys.publishable]) {
      const res = await h.request({ method: 'GET', url, key });
      expect(res.statusCode, `${url} ${key.slice(0, 8)}`).toBe(200);
    }
  });

  const bad: [string, (k: typeof keys) => Record<string, string>, string][] = [
    ['no key', () => ({}), 'api_key_required'],
    ['empty header', () => ({ authorization: '' }), 'api_key_required'],
    ['not Bearer', (k) => ({ authorization: `Basic ${k.secret}` }), 'invalid_api_key'],
    ['malformed key', () => ({ authorization: 'Bearer sk_test_short' }), 'invalid_api_key'],
    ['unknown key of the right shape', () => ({ authorization: `Bearer sk_test_${'A'.repeat(43)}` }), 'invalid_api_key'],
    ['live key on the test deployment', (k) => ({ authorization: `Bearer ${k.secret.replace('sk_test_', 'sk_live_')}` }), 'invalid_api_key'],
    ['publishable prefix on a secret key', (k) => ({ authorization: `Bearer ${k.secret.replace('sk_', 'pk_')}` }), 'invalid_api_key'],
  ];

  test.each(bad)('%s → 401 problem on every endpoint, never anonymous access', async (_name, headers, code) => {
    for (const url of PUBLIC_ENDPOINTS) {
      const res = await h.request({ method: 'GET', url, headers: headers(keys) });
      expect(res.statusCode, url).toBe(401);
      expect(res.headers['content-type']).toBe('application/problem+json');
      expect(res.json()).toMatchObject({ status: 401, code, type: `/docs/problems#${code}` });
      expect(res.body).not.toContain(keys.secret);
    }
  });

  test('a revoked key → 401 saying so', async () => {
    const res = await h.request({ method: 'GET', url: '/v1/marketplace', key: revoked });
    expect(res.statusCode).toBe(401);
    expect(res.json().detail).toBe('This API key has been revoked.');
  });

  test('the key alone identifies the marketplace', async () => {
    const other = await makeMarketplace(h, 'other');
    const a = (await h.request({ method: 'GET', url: '/v1/marketplace', key: keys.publishable })).json();
    const b = (await h.request({ method: 'GET', url: '/v1/marketplace', key: other.publishable })).json();
    expect(a.slug).toBe('shop');
    expect(b.slug).toBe('other');
  });

  test('over /trpc the same keys and errors apply, inside the tRPC envelope', async () => {
    const ok = await h.app.inject({ method: 'GET', url: '/trpc/marketplace.get?input=%7B%7D', headers: { authorization: `Bearer ${keys.publishable}` } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().result.data.slug).toBe('shop');
    const denied = await h.app.inject({ method: 'GET', url: '/trpc/marketplace.get?input=%7B%7D' });
    expect(denied.statusCode).toBe(401);
    expect(denied.json().error.data.problem).toMatchObject({ status: 401, code: 'api_key_required', title: 'API key required' });
  });
});

describe('live deployment', () => {
  let h: Harness;
  let keys: { secret: string; publishable: string };
  beforeAll(async () => {
    h = await startHarness({ mode: 'live' });
    keys = await makeCatalog(h);
  });
  afterAll(() => h.close());

  test('the console issues live keys, and only live keys work', async () => {
    expect(keys.secret).toMatch(/^sk_live_/);
    expect(keys.publishable).toMatch(/^pk_live_/);
    for (const url of PUBLIC_ENDPOINTS) {
      expect((await h.request({ method: 'GET', url, key: keys.secret })).statusCode).toBe(200);
      expect((await h.request({ method: 'GET', url, key: keys.publishable })).statusCode).toBe(200);
      const test = await h.request({ method: 'GET', url, key: keys.secret.replace('sk_live_', 'sk_test_') });
      expect(test.statusCode).toBe(401);
      expect(test.json().detail).toContain('test key');
    }
  });
});
