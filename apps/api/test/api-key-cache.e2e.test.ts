import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createOrm, type MikroORM } from '@hm/db/orm';
import type { AuthenticatedKey } from '@hm/domain/core';
import { DomainError } from '@hm/contract/problems';
import { buildApp } from '../src/app.js';
import { API_KEY_CACHE_MAX_MS, apiKeyAuthenticator } from '../src/http/api-key-cache.js';
import { makeMarketplace, startHarness, type Harness } from './harness.js';

/**
 * The API key → marketplace cache (API_KEY_CACHE_MS): reused for at most a second, so a revoked key
 * is refused — and a changed marketplace seen — by every API process within a second.
 */
let h: Harness;
let keys: { secret: string; publishable: string };
beforeAll(async () => {
  h = await startHarness();
  keys = await makeMarketplace(h, 'shop');
});
afterAll(() => h.close());

const bearer = (key: string) => `Bearer ${key}`;
const accepted = (answer: AuthenticatedKey | DomainError) => {
  if (answer instanceof DomainError) throw new Error(`refused: ${answer.message}`);
  return answer;
};

describe('one process (a clock of its own)', () => {
  test('an accepted key is reused until its lookup is a second old, then asked again: a revocation shows at 1000 ms, not before', async () => {
    let now = 0;
    const authenticate = apiKeyAuthenticator(h.orm, 'test', API_KEY_CACHE_MAX_MS, () => now);
    const { token } = await h.console.keys.create({ marketplace: 'shop', kind: 'secret' });
    const first = accepted(await authenticate(bearer(token)));
    expect(first.marketplace.slug).toBe('shop');
    await h.console.keys.revoke({ key: token });
    now = 999;
    expect(await authenticate(bearer(token))).toBe(first); // the same answer, no lookup
    now = 1000;
    const after = await authenticate(bearer(token));
    expect(after).toBeInstanceOf(DomainError);
    expect((after as DomainError).message).toBe('This API key has been revoked.');
    now = 1001;
    expect(await authenticate(bearer(token))).toBeInstanceOf(DomainError); // refusals are not kept
  });

  test('concurrent first requests for a key share one lookup; other keys get their own', async () => {
    const authenticate = apiKeyAuthenticator(h.orm, 'test', API_KEY_CACHE_MAX_MS, () => 0);
    const [a, b, c] = [authenticate(bearer(keys.secret)), authenticate(bearer(keys.secret)), authenticate(bearer(keys.publishable))];
    expect(a).toBe(b);
    expect(c).not.toBe(a);
    expect(accepted(await a).kind).toBe('secret');
    expect(accepted(await c).kind).toBe('publishable');
  });

  test('unknown, malformed and missing keys are refused every time, never remembered as accepted', async () => {
    const authenticate = apiKeyAuthenticator(h.orm, 'test', API_KEY_CACHE_MAX_MS, () => 0);
    for (const header of [bearer(`sk_test_${'A'.repeat(43)}`), bearer('sk_test_short'), 'Basic x', '', undefined]) {
      for (let i = 0; i < 2; i++) expect(await authenticate(header), String(header)).toBeInstanceOf(DomainError);
    }
  });

  test('0 asks the database on every request; more than a second is refused', async () => {
    const authenticate = apiKeyAuthenticator(h.orm, 'test', 0);
    const [a, b] = [authenticate(bearer(keys.secret)), authenticate(bearer(keys.secret))];
    expect(a).not.toBe(b);
    expect(accepted(await a).apiKeyId).toBe(accepted(await b).apiKeyId);
    expect(() => apiKeyAuthenticator(h.orm, 'test', API_KEY_CACHE_MAX_MS + 1)).toThrow('at most 1000 ms');
  });
});

describe('two API processes with caches of their own, each with its own connection pool', () => {
  let orms: MikroORM[];
  let apps: FastifyInstance[];
  let listening: FastifyInstance[];
  beforeAll(async () => {
    orms = await Promise.all([createOrm(h.databaseUrl, { poolMax: 2 }), createOrm(h.databaseUrl, { poolMax: 2 })]);
    apps = await Promise.all(orms.map((orm) => buildApp({ orm, mode: 'test', ports: h.ports, apiUrl: 'http://localhost:4000', apiKeyCacheMs: API_KEY_CACHE_MAX_MS })));
    // two more, each listening for the change triggers' notifications
    listening = await Promise.all(orms.map((orm) => buildApp({ orm, mode: 'test', ports: h.ports, apiUrl: 'http://localhost:4000', apiKeyCacheMs: API_KEY_CACHE_MAX_MS, keyChangesUrl: h.databaseUrl })));
  });
  afterAll(async () => {
    await Promise.all([...apps, ...listening].map((a) => a.close()));
    await Promise.all(orms.map((o) => o.close(true)));
  });

  const get = (app: FastifyInstance, key: string) => app.inject({ method: 'GET', url: '/v1/marketplace', headers: { authorization: bearer(key) } });
  const sleepUntil = (t: number) => new Promise((r) => setTimeout(r, Math.max(0, t - performance.now())));

  test('a key revoked by the console is refused by every process within a second of the revocation', async () => {
    const { token } = await h.console.keys.create({ marketplace: 'shop', kind: 'publishable' });
    for (const app of apps) expect((await get(app, token)).statusCode).toBe(200);
    await h.console.keys.revoke({ key: token });
    const revokedAt = performance.now();
    await sleepUntil(revokedAt + API_KEY_CACHE_MAX_MS);
    for (const app of apps) {
      const res = await get(app, token);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'invalid_api_key', detail: 'This API key has been revoked.' });
    }
    // other keys of the marketplace are untouched
    for (const app of apps) expect((await get(app, keys.publishable)).statusCode).toBe(200);
  });

  test('a marketplace changed by the console is seen by every process within a second', async () => {
    for (const app of apps) expect((await get(app, keys.publishable)).json().name).toBe('Shop shop');
    await h.console.marketplace.update({ marketplace: 'shop', settings: { name: 'Renamed shop' } });
    const changedAt = performance.now();
    await sleepUntil(changedAt + API_KEY_CACHE_MAX_MS);
    for (const app of apps) expect((await get(app, keys.publishable)).json().name).toBe('Renamed shop');
  });

  /** ms until `check` holds for every app (polled every 10 ms), or the cache's whole second */
  const seenAfter = async (apps: FastifyInstance[], check: (app: FastifyInstance) => Promise<boolean>) => {
    const from = performance.now();
    for (;;) {
      const seen = await Promise.all(apps.map(check));
      if (seen.every(Boolean) || performance.now() - from > API_KEY_CACHE_MAX_MS) return performance.now() - from;
      await new Promise((r) => setTimeout(r, 10));
    }
  };

  test('listening for changes: a revocation and a marketplace change are seen as soon as they commit, not a second later', async () => {
    const { token } = await h.console.keys.create({ marketplace: 'shop', kind: 'publishable' });
    for (const app of listening) expect((await get(app, token)).statusCode).toBe(200);
    await h.console.keys.revoke({ key: token });
    expect(await seenAfter(listening, async (app) => (await get(app, token)).statusCode === 401)).toBeLessThan(API_KEY_CACHE_MAX_MS / 2);
    for (const app of listening) expect((await get(app, keys.publishable)).statusCode).toBe(200);
    // the answer kept with the marketplace goes with it: the very next request after the notification is the new one
    const before = (await get(listening[0]!, keys.publishable)).json().name as string;
    await h.console.marketplace.update({ marketplace: 'shop', settings: { name: `${before} again` } });
    expect(await seenAfter(listening, async (app) => (await get(app, keys.publishable)).json().name === `${before} again`)).toBeLessThan(API_KEY_CACHE_MAX_MS / 2);
  });
});

describe('changes heard by the cache', () => {
  test("a change drops that marketplace's answers and every lookup still running; others stay; `undefined` drops all", async () => {
    let heard: (id: string | undefined) => void = () => {};
    const other = await makeMarketplace(h, 'other-shop');
    const authenticate = apiKeyAuthenticator(h.orm, 'test', API_KEY_CACHE_MAX_MS, () => 0, (handler) => (heard = handler));
    const shop = await authenticate(bearer(keys.secret));
    const otherAnswer = await authenticate(bearer(other.secret));
    const shopId = accepted(shop).marketplace.id;
    heard(shopId);
    expect(await authenticate(bearer(keys.secret))).not.toBe(shop); // asked again
    expect(await authenticate(bearer(other.secret))).toBe(otherAnswer); // kept
    const running = authenticate(bearer(other.publishable));
    heard(shopId); // the running lookup's marketplace is not known yet: it goes too
    expect(authenticate(bearer(other.publishable))).not.toBe(running);
    heard(undefined);
    expect(await authenticate(bearer(other.secret))).not.toBe(otherAnswer);
  });
});
