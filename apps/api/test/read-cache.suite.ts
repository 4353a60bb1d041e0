import { afterAll, beforeAll, expect } from 'vitest';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { createOrm, type MikroORM } from '@hm/db/orm';
import { buildApp } from '../src/app.js';
import { makeSellingMarketplace, putOnSale, signUp, startHarness, type Harness } from './harness.js';

/**
 * Shared by the read cache test files: process A (the harness's app, keeping answers), process B (its
 * own pool and listener, keeping answers) and `plain` (keeps nothing) over one marketplace with four
 * listings on sale by Alice and Bob, and the checks that a kept answer is the uncached one.
 */
export type Market = Awaited<ReturnType<typeof makeSellingMarketplace>>;
type Method = 'GET' | 'PUT' | 'POST' | 'PATCH' | 'DELETE';
type Answer = Awaited<ReturnType<FastifyInstance['inject']>>;

export interface ReadCacheSuite {
  h: Harness;
  m: Market;
  /** sessions of the two sellers */
  alice: string;
  bob: string;
  /** the listings on sale: cafe and ecole (Alice's), lounge and lamp (Bob's) */
  L: Record<string, string>;
  /** A: the harness's app; B: a second process (its own pool, its own listener); plain: keeps nothing */
  a: FastifyInstance;
  b: FastifyInstance;
  plain: FastifyInstance;
  call(app: FastifyInstance, method: Method, url: string, opts?: { key?: string; session?: string; tag?: string; payload?: object }): Promise<Answer>;
  /** Statements sent to Postgres by any pool of this test process while `fn` runs (every app's connection shares the prototype). */
  statementsDuring(fn: () => Promise<unknown>): Promise<number>;
  statementTexts(fn: () => Promise<unknown>): Promise<string[]>;
  onSale(session: string, content: Record<string, unknown>): Promise<string>;
  /**
   * Runs `requests` with every statement matching `held` held once it was answered; meanwhile `sql`
   * commits on a connection of its own and is heard; then lets them finish. Their answers.
   */
  changedWhileHeld<T>(held: RegExp, requests: () => Promise<T>, sql: string, params: unknown[]): Promise<T>;
  /** Polls A and B (every 5 ms) until `url` answers what the uncached process answers; ms taken, or fails after 1 s. */
  seenByBoth(url: string, key?: string): Promise<number>;
  /** Each URL through A and B, twice, equals the uncached process's answer (body and tag). */
  expectSameFor(urls: string[]): Promise<void>;
  favourite(app: FastifyInstance, method: 'PUT' | 'DELETE', listing: string | undefined, session: string): Promise<Answer>;
}

/** Registers the harness's beforeAll/afterAll; the fields are filled before the first test. */
export function readCacheSuite(): ReadCacheSuite {
  let orm2: MikroORM;
  const s = { L: {} } as ReadCacheSuite;
  s.call = (app, method, url, opts = {}) =>
    app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${opts.key ?? s.m.publishable}`, ...(opts.session ? { 'x-user-session': opts.session } : {}), ...(opts.tag ? { 'if-none-match': opts.tag } : {}) },
      ...(opts.payload ? { payload: opts.payload } : {}),
    });
  s.statementsDuring = async (fn) => (await s.statementTexts(fn)).length;
  s.statementTexts = async (fn) => {
    const proto = Object.getPrototypeOf(s.h.orm.em.getConnection()) as { execute: (...x: unknown[]) => unknown };
    const execute = proto.execute;
    const sent: string[] = [];
    proto.execute = function (this: unknown, ...x: unknown[]) {
      sent.push(String(x[0]));
      return execute.apply(this, x);
    };
    try {
      await fn();
    } finally {
      proto.execute = execute;
    }
    return sent;
  };
  s.onSale = (session, content) => putOnSale(s.h, s.m.secret, session, content);
  s.changedWhileHeld = async (held, requests, sql, params) => {
    const proto = Object.getPrototypeOf(s.h.orm.em.getConnection()) as { execute: (...x: unknown[]) => Promise<unknown> };
    const execute = proto.execute;
    let release = () => {};
    const hold = new Promise<void>((r) => (release = r));
    proto.execute = async function (this: unknown, ...x: unknown[]) {
      const out = await execute.apply(this, x);
      if (held.test(String(x[0]))) await hold;
      return out;
    };
    try {
      const running = requests();
      await new Promise((r) => setTimeout(r, 50));
      const client = new pg.Client({ connectionString: s.h.databaseUrl });
      await client.connect();
      await client.query(sql, params);
      await client.end();
      await new Promise((r) => setTimeout(r, 100)); // heard
      release();
      return await running;
    } finally {
      release();
      proto.execute = execute;
    }
  };
  s.seenByBoth = async (url, key = s.m.publishable) => {
    const from = performance.now();
    for (;;) {
      const want = await s.call(s.plain, 'GET', url, { key });
      const got = await Promise.all([s.a, s.b].map((app) => s.call(app, 'GET', url, { key })));
      if (got.every((g) => g.statusCode === want.statusCode && g.body === want.body && g.headers.etag === want.headers.etag)) return performance.now() - from;
      if (performance.now() - from > 1000) throw new Error(`${url} still stale after 1 s: ${got.map((g) => g.body.slice(0, 80)).join(' | ')}`);
      await new Promise((r) => setTimeout(r, 5));
    }
  };
  s.expectSameFor = async (urls) => {
    for (const url of urls) {
      const want = await s.call(s.plain, 'GET', url);
      expect(want.statusCode, `${url}: ${want.body}`).toBe(200);
      for (const app of [s.a, s.b]) for (let i = 0; i < 2; i++) {
        const got = await s.call(app, 'GET', url);
        expect({ url, body: got.body, tag: got.headers.etag }).toEqual({ url, body: want.body, tag: want.headers.etag });
      }
    }
  };
  s.favourite = (app, method, listing, session) => s.call(app, method, `/v1/me/favorites/${listing!}`, { key: s.m.secret, session });

  beforeAll(async () => {
    const h = (s.h = await startHarness({ readCache: true }));
    s.a = h.app;
    const m = (s.m = await makeSellingMarketplace(h, 'shop', { min_images: 0 }));
    await h.console.rates.set({ marketplace: 'shop', date: '2026-11-21', base: 'EUR', rates: { SEK: 11.5 } });
    // tomorrow's rate, set ahead: the day's answers change at midnight without a change committing then
    await h.console.rates.set({ marketplace: 'shop', date: '2026-11-23', base: 'EUR', rates: { SEK: 10 } });
    const alice = (s.alice = (await signUp(h, m.secret, { email: 'alice@example.com', password: 'alice password', display_name: 'Alice Antiques' })).token);
    const bob = (s.bob = (await signUp(h, m.secret, { email: 'bob@example.com' })).token);
    const L = s.L;
    L.cafe = await s.onSale(alice, { title: 'Café table', description: 'Round, oak.', category_id: m.category.tables, price: { amount: 150000, currency: 'SEK' } });
    L.ecole = await s.onSale(alice, { title: 'School chair', description: 'Stackable.', terms: { brand: m.brand.ecole, color: m.color.red }, category_id: m.category.chairs, price: { amount: 10000, currency: 'EUR' } });
    L.lounge = await s.onSale(bob, { title: 'Lounge chair', description: 'Deep.', terms: { brand: m.brand.artek }, category_id: m.category.chairs, price: { amount: 120000, currency: 'SEK' } });
    L.lamp = await s.onSale(bob, { title: 'Ekström lamp', description: 'Brass.', terms: { brand: m.brand.ekstrom }, category_id: m.category.lighting, price: { amount: 5000, currency: 'EUR' } });
    orm2 = await createOrm(h.databaseUrl, { poolMax: 2 });
    s.b = await buildApp({ orm: orm2, mode: 'test', ports: h.ports, apiUrl: 'http://localhost:4000', apiKeyCacheMs: 1000, keyChangesUrl: h.databaseUrl });
    s.plain = await buildApp({ orm: h.orm, mode: 'test', ports: h.ports, apiUrl: 'http://localhost:4000' });
  });
  afterAll(async () => {
    await Promise.all([s.b?.close(), s.plain?.close()]);
    await orm2?.close(true);
    await s.h.close();
  });
  return s;
}
