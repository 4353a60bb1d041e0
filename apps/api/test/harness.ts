import { inject } from 'vitest';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { createOrm, type MikroORM } from '@hm/db/orm';
import { createTestDatabase } from '@hm/db/testing';
import { consoleCaller } from '@hm/domain/console';
import type { ApiMode, Clock } from '@hm/domain/context';
import { buildApp } from '../src/app.js';
import { validateResponse } from './openapi-validator.js';

export interface TestClock extends Clock {
  set(d: Date | string): void;
  advance(ms: number): void;
}

export function testClock(start = '2026-11-22T10:00:00.000Z'): TestClock {
  let now = new Date(start).getTime();
  return {
    now: () => new Date(now),
    set: (d) => (now = new Date(d).getTime()),
    advance: (ms) => (now += ms),
  };
}

export interface Harness {
  app: FastifyInstance;
  orm: MikroORM;
  clock: TestClock;
  mode: ApiMode;
  console: ReturnType<typeof consoleCaller>;
  /** inject + validate every /v1 response against the published OpenAPI document */
  request(opts: InjectOptions & { key?: string; session?: string }): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export async function startHarness(opts: { mode?: ApiMode } = {}): Promise<Harness> {
  const url = await createTestDatabase(inject('adminDatabaseUrl'));
  const orm = await createOrm(url, { poolMax: 5 });
  const clock = testClock();
  const mode = opts.mode ?? 'test';
  const app = await buildApp({ orm, mode, clock, apiUrl: 'http://localhost:4000' });
  await app.ready();
  const caller = consoleCaller({
    orm,
    mode,
    clock,
    transport: 'console',
    requestId: 'test',
    auth: undefined,
    sessionToken: undefined,
  });
  return {
    app,
    orm,
    clock,
    mode,
    console: caller,
    async request({ key, session, headers, ...rest }) {
      const res = await app.inject({
        ...rest,
        headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(session ? { 'x-user-session': session } : {}), ...headers },
      });
      const url = String(rest.url ?? '');
      if (url.startsWith('/v1/') && !url.startsWith('/v1/openapi.json')) await validateResponse(app, rest.method ?? "GET", url, res);
      return res;
    },
    async close() {
      await app.close();
      await orm.close(true);
    },
  };
}

/** A marketplace with keys, made through the operator console like an operator would. */
export async function makeMarketplace(h: Harness, slug = 'shop', extra: { currencies?: string[]; locales?: string[] } = {}) {
  const { marketplace, keys } = await h.console.marketplace.create({
    name: `Shop ${slug}`,
    slug,
    currencies: extra.currencies ?? ['SEK', 'EUR'],
    locales: extra.locales ?? ['en', 'sv'],
    storefront_url: 'https://shop.example',
  });
  return { marketplace, secret: keys.secret, publishable: keys.publishable };
}
