import { expect, inject } from 'vitest';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { createOrm, type MikroORM } from '@hm/db/orm';
import { createOwnedTestDatabase, createTestDatabase } from '@hm/db/testing';
import { consoleCaller } from '@hm/contract/console';
import { consoleContext, type ApiMode, type Clock } from '@hm/domain/core';
import { buildApp, type AppDeps } from '../src/app.js';
import { validateResponse } from './openapi-validator.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { Logger, runOnce } from 'graphile-worker';
import { RECORD_RESULTS_BEFORE_RETURNING, createTaskList } from '@hm/jobs/worker';
import type { ImageStore } from '@hm/domain/images';
import { localDirs, localPorts, type Ports } from '@hm/domain/ports';

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
  /** runs every job that is due now (emails …), like the worker would */
  runJobs(): Promise<void>;
  /** the local mailbox folder the send-email jobs write .eml files to */
  mailDir: string;
  images: ImageStore;
  /** the payments port the app uses (the local sandbox in this test's folder, unless given) */
  payments: Ports['payments'];
  /** the ports the app and its jobs use (offline adapters, test clock), for commands run beside it */
  ports: Ports;
  /** the test database, for a real worker beside the app */
  databaseUrl: string;
  close(): Promise<void>;
}

export interface HarnessOptions {
  mode?: ApiMode;
  bodyLimit?: number;
  app?: Pick<AppDeps, 'logger' | 'requestTimeoutMs' | 'stripeWebhookSecret' | 'stripeConnectWebhookSecret' | 'apiKeyCacheMs'>;
  /** another payments adapter than the local sandbox (Stripe against a local server) */
  payments?: Ports['payments'];
  extend?: (app: FastifyInstance, orm: MikroORM, clock: TestClock) => Promise<void>;
  /** connect as a database owner that is not a superuser (row-level security applies to it too), like many external DATABASE_URLs */
  restrictedOwner?: boolean;
  /** replaces adapters of the offline ports (e.g. a payments port that fails), given the sandbox ones */
  ports?: (local: Ports) => Partial<Ports>;
  /** the ORM's connection pool (default 5); concurrency tests use more */
  poolMax?: number;
  /** as `npm start`: the key cache (1 s) and its change listener, and so the public read cache (`false`: the listener without it) */
  readCache?: boolean;
}

export async function startHarness(opts: HarnessOptions = {}): Promise<Harness> {
  const url = opts.restrictedOwner ? (await createOwnedTestDatabase(inject('adminDatabaseUrl'))).url : await createTestDatabase(inject('adminDatabaseUrl'));
  const orm = await createOrm(url, { poolMax: opts.poolMax ?? 5 });
  const clock = testClock();
  const mode = opts.mode ?? 'test';
  // the offline adapters in a folder of this test's own, with the test clock
  const dataDir = mkdtempSync(path.join(tmpdir(), 'hm-data-'));
  const local = localPorts({ dataDir, mode, clock });
  const ports = { ...local, ...(opts.payments && { payments: opts.payments }), ...opts.ports?.(local) };
  const listen = opts.readCache === undefined ? {} : { apiKeyCacheMs: 1000, keyChangesUrl: url, readCache: opts.readCache };
  const app = await buildApp({ orm, mode, ports, apiUrl: 'http://localhost:4000', bodyLimit: opts.bodyLimit, ...listen, ...opts.app });
  await opts.extend?.(app, orm, clock);
  const jobsPool = new pg.Pool({ connectionString: url, max: 2 });
  jobsPool.on('error', () => {});
  jobsPool.on('connect', (client) => client.on('error', () => {}));
  const taskList = createTaskList({ orm, mode, mailFrom: 'no-reply@shop.example', ports });
  await app.ready();
  const caller = consoleCaller(consoleContext({ orm, mode, ports, publicUrl: 'http://localhost:4000' }, 'test'));
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
      if (/^\/(console\/)?v1\//.test(url) && !/^\/(console\/)?v1\/openapi\.json/.test(url)) await validateResponse(app, rest.method ?? "GET", url, res);
      return res;
    },
    mailDir: localDirs(dataDir, mode).mailbox,
    images: ports.images,
    payments: ports.payments,
    ports,
    databaseUrl: url,
    async runJobs() {
      // results recorded before this returns: the next look at the queue sees them
      await runOnce({ pgPool: jobsPool, taskList, logger: new Logger(() => () => {}), preset: RECORD_RESULTS_BEFORE_RETURNING });
    },
    async close() {
      await jobsPool.end();
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

/** A marketplace with term kinds, categories two levels deep, terms with accents and two sites. */
export async function makeCatalog(h: Harness, slug = 'shop') {
  const m = await makeMarketplace(h, slug);
  await h.console.marketplace.update({
    marketplace: slug,
    settings: {
      term_kinds: [
        { key: 'brand', names: { en: 'Brand', sv: 'Märke' } },
        { key: 'color', names: { en: 'Colour', sv: 'Färg' } },
      ],
    },
  });
  await h.console.categories.import({
    marketplace: slug,
    items: [
      { slug: 'lighting', names: { en: 'Lighting', sv: 'Belysning' }, position: 2 },
      { slug: 'chairs', names: { en: 'Chairs', sv: 'Stolar' }, parent: 'furniture', position: 1 },
      { slug: 'furniture', names: { en: 'Furniture', sv: 'Möbler' }, position: 1 },
      { slug: 'tables', names: { en: 'Tables' }, parent: 'furniture', position: 2 },
    ],
  });
  await h.console.terms.import({
    marketplace: slug,
    items: [
      { kind: 'brand', slug: 'ekstrom', names: { en: 'Ekström Möbler' }, descriptions: { en: 'Swedish chairs.', sv: 'Svenska stolar.' } },
      { kind: 'brand', slug: 'artek', names: { en: 'Artek', sv: 'Artek' }, descriptions: {} },
      { kind: 'brand', slug: 'eames', names: { en: 'Eames' }, descriptions: {} },
      { kind: 'brand', slug: 'ecole', names: { en: 'École' }, descriptions: {} },
      { kind: 'brand', slug: 'zanotta', names: { en: 'Zanotta' }, descriptions: {} },
      { kind: 'color', slug: 'red', names: { en: 'Red', sv: 'Röd' }, descriptions: {} },
    ],
  });
  await h.console.sites.create({
    marketplace: slug,
    site: { kind: 'showroom', name: 'Showroom', line1: 'Götgatan 1', postal_code: '11646', city: 'Stockholm', country: 'SE', opening_hours: 'Tue–Sat 11–18', buyer_pickup: true },
  });
  await h.console.sites.create({
    marketplace: slug,
    site: { kind: 'warehouse', name: 'Old warehouse', line1: 'Lagervägen 2', postal_code: '12345', city: 'Huddinge', country: 'SE', active: false },
  });
  return m;
}

/** Signs a user up over HTTP; returns the session token and the user body. */
export async function signUp(h: Harness, key: string, body: Record<string, unknown>) {
  const res = await h.request({ method: 'POST', url: '/v1/users', key, payload: body });
  if (res.statusCode !== 201) throw new Error(`sign-up failed: ${res.statusCode} ${res.body}`);
  const json = res.json();
  return { token: json.session.token as string, user: json.user, body: json };
}

/** Sends queued emails, then reads them through the test helper (newest first). */
export async function emailsTo(h: Harness, key: string, to: string) {
  await h.runJobs();
  const res = await h.request({ method: 'GET', url: `/v1/test-helpers/emails?to=${encodeURIComponent(to)}&limit=100`, key });
  if (res.statusCode !== 200) throw new Error(`test helper failed: ${res.statusCode} ${res.body}`);
  return res.json().items as { id: string; to: string; subject: string; text: string; html: string; links: string[]; template: string; locale: string; sent_at: string }[];
}

/** The `token` query parameter of an emailed link. */
export function tokenOf(link: string | undefined): string {
  if (!link) throw new Error('no link');
  return new URL(link).searchParams.get('token')!;
}

/** A marketplace set up for selling: catalogue, listing rules, optional shipping table. */
export async function makeSellingMarketplace(h: Harness, slug: string, listings: Record<string, unknown>, shipping?: Record<string, unknown>) {
  const m = await makeCatalog(h, slug);
  await h.console.marketplace.update({
    marketplace: slug,
    settings: {
      listings: { min_images: 1, require_approval: false, require_category: false, required_terms: [], valuations: false, ...listings } as never,
      ...(shipping ? { shipping: shipping as never } : {}),
    },
  });
  const { items } = await (async () => {
    const res = await h.request({ method: 'GET', url: '/v1/catalog-terms?kind=brand', key: m.secret });
    return res.json() as { items: { id: string; slug: string }[] };
  })();
  const color = (await h.request({ method: 'GET', url: '/v1/catalog-terms?kind=color', key: m.secret })).json().items as { id: string; slug: string }[];
  const categories = (await h.request({ method: 'GET', url: '/v1/categories', key: m.secret })).json().items as { id: string; slug: string }[];
  const sites = (await h.request({ method: 'GET', url: '/v1/locations', key: m.secret })).json().items as { id: string }[];
  return {
    ...m,
    brand: Object.fromEntries(items.map((t) => [t.slug, t.id])) as Record<string, string>,
    color: Object.fromEntries(color.map((t) => [t.slug, t.id])) as Record<string, string>,
    category: Object.fromEntries(categories.map((c) => [c.slug, c.id])) as Record<string, string>,
    siteId: sites[0]!.id,
  };
}

/** A real JPEG of a plain colour. */
export async function jpeg(width = 1200, height = 800): Promise<Buffer> {
  const { default: sharp } = await import('sharp');
  return sharp({ create: { width, height, channels: 3, background: { r: 120, g: 90, b: 60 } } }).jpeg().toBuffer();
}

/** POST the bytes as a photo of a listing. */
export function uploadPhoto(h: Harness, key: string, session: string, listingId: string, bytes: Buffer, contentType = 'image/jpeg') {
  return h.request({ method: 'POST', url: `/v1/me/listings/${listingId}/images`, key, session, headers: { 'content-type': contentType }, payload: bytes });
}

/** A listing put on sale by `session` with the marketplace's secret key; each a second after the previous, so "newest" is well defined. */
export async function putOnSale(h: Harness, secret: string, session: string, content: Record<string, unknown>): Promise<string> {
  h.clock.advance(1000);
  const created = await h.request({ method: 'POST', url: '/v1/me/listings', key: secret, session, payload: { location: { country: 'SE' }, delivery: { pickup: true }, price: { amount: 10000, currency: 'SEK' }, ...content } });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().id as string;
  const pub = await h.request({ method: 'POST', url: `/v1/me/listings/${id}/publish`, key: secret, session, payload: {} });
  expect(pub.json().status, pub.body).toBe('published');
  return id;
}
