/**
 * One HTTP server for bench/api-vs-bare.ts, run in its own process (forked by the benchmark):
 *
 *   api   the real application: buildApp() from apps/api, MikroORM, tRPC + trpc-to-openapi, hooks
 *   bare  a plain Fastify app with two routes doing the same database work with raw SQL through `pg`
 *         and mapping rows with the same domain code, so only the stack differs
 *
 * Each server gets its own process so neither shares an event loop, heap or GC with the other or with
 * the load generator. It reports its port over IPC, answers CPU-usage probes, and exits when the
 * benchmark disconnects (so it cannot outlive a crashed benchmark).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';
import { createOrm } from '@hm/db/orm';
import type { EntityManager } from '@hm/db/orm';
import type { CommandContext } from '@hm/domain/core';
import { TENANT_FILTER, TENANT_ROLE, MARKETPLACE_SETTING } from '@hm/db/tenancy';
import { localPorts } from '@hm/domain/ports';
import { buildApp } from '../apps/api/src/app.js';
import { API_KEY_CACHE_MAX_MS } from '../apps/api/src/http/api-key-cache.js';
import { toMarketplaceBody } from '../packages/domain/src/marketplace/marketplace.mapper.js';
import { listCategories } from '../packages/domain/src/catalog/commands/list-categories.js';
import { bareKeyAuth } from './bare-auth.js';
import { loadRelations } from '../packages/domain/src/listings/listing.mapper.js';
import { toShopListing } from '../packages/domain/src/listing-search/listing-search.mapper.js';
import { displayNameOf, listingOnSale, listingRowsInOrder, shopRelationReads } from '../packages/domain/src/listing-search/shop-reads.queries.js';
import { searchListings } from '../packages/domain/src/listing-search/commands/search-listings.js';
import type { SearchInput } from '../packages/domain/src/listing-search/listing-search.schema.js';
import { RateBook } from '../packages/domain/src/rates/rate-book.js';
import { isReplay, ROUTES, type Role } from './api-vs-bare.routes.js';

export type ServerMessage = { type: 'ready'; port: number } | { type: 'cpu'; id: number; user: number; system: number; rss: number };
export type ParentMessage = { type: 'cpu'; id: number } | { type: 'stop' } | { type: 'replay'; path: string; statements: Statement[] };
/** A statement as Postgres logged it: its text, and the values of `$n` placeholders when it had any. */
export interface Statement {
  text: string;
  values?: (string | null)[];
}

/** Same pool size as the API's default (createOrm → MikroORM pool max 10; DATABASE_POOL_MAX default 10). */
export const POOL_MAX = 10;
const MODE = 'test' as const;

async function apiServer(databaseUrl: string, readCache: boolean) {
  const orm = await createOrm(databaseUrl, { poolMax: POOL_MAX });
  const ports = localPorts({ dataDir: mkdtempSync(path.join(tmpdir(), 'hm-bench-')), mode: MODE });
  const app = await buildApp({ orm, mode: MODE, apiUrl: PUBLIC_URL, logger: false, ports, apiKeyCacheMs: API_KEY_CACHE_MAX_MS, keyChangesUrl: databaseUrl, readCache });
  return { app, close: async () => void (await app.close(), await orm.close(true)) };
}

/**
 * The baseline. Database work per request mirrors the API's (see the statement check in the
 * benchmark): authenticateApiKey's two lookups (key by token hash, then its marketplace), plus the
 * categories query for /v1/categories. Rows are shaped like the entities and handed to the domain's
 * own mapper (toMarketplaceBody) and ordering code (listCategories), so the JSON is the same.
 */
async function bareServer(databaseUrl: string) {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: POOL_MAX });
  const app = Fastify({ logger: false });

  // the API's database work for a key, and the same reuse as its key cache (API_KEY_CACHE_MS)
  const authenticate = bareKeyAuth(pool, MODE);

  const unauthorized = { type: 'about:blank', title: 'Unauthorized', status: 401, code: 'invalid_api_key' };

  app.get('/v1/marketplace', async (req, reply) => {
    const m = await authenticate(req.headers.authorization);
    if (!m) return reply.code(401).send(unauthorized);
    return toMarketplaceBody(m);
  });

  app.get<{ Querystring: { locale?: string } }>('/v1/categories', async (req, reply) => {
    const m = await authenticate(req.headers.authorization);
    if (!m) return reply.code(401).send(unauthorized);
    // the domain's own plain-SQL read over the stand-in entity manager below: the same statement,
    // in one transaction as the API's reads run (row-level security)
    return tenantRead(pool, m.id, async (em) => ({ items: await listCategories({ em, marketplace: m } as unknown as CommandContext, req.query.locale) }));
  });

  // GET /v1/listings/{id} and GET /v1/listings?limit=24: the procedures' own domain code (the search
  // command, the shop's plain-SQL reads, loadRelations, toShopListing) over a stand-in entity manager
  // whose `execute` sends their statements through `pg` with the values inlined as MikroORM inlines
  // them (the benchmark checks the statements are the same, word for word). One transaction as the
  // API's reads run: begin and the tenant settings sent with the first statement, then commit.
  app.get<{ Params: { id: string } }>('/v1/listings/:id', async (req, reply) => {
    const m = await authenticate(req.headers.authorization);
    if (!m) return reply.code(401).send(unauthorized);
    return tenantRead(pool, m.id, async (em) => {
      const l = await listingOnSale(em, req.params.id);
      if (!l) return reply.code(404).send({ type: 'about:blank', title: 'Not Found', status: 404, code: 'not_found' });
      const [rel, sellerName] = await Promise.all([loadRelations(em, [l], shopRelationReads(em)), displayNameOf(em, l.sellerId)]);
      const body = toShopListing(l, rel, { marketplace: m, publicUrl: PUBLIC_URL, rates: new RateBook([], m.currencies[0] ?? ''), single: true });
      return { ...body, seller: { id: l.sellerId, display_name: sellerName } };
    });
  });

  app.get<{ Querystring: { limit?: string } }>('/v1/listings', async (req, reply) => {
    const m = await authenticate(req.headers.authorization);
    if (!m) return reply.code(401).send(unauthorized);
    const input = { limit: Number(req.query.limit ?? 24), term: [], attr: [] } as unknown as SearchInput;
    return tenantRead(pool, m.id, async (em) => {
      const rates = new RateBook([], m.currencies[0] ?? '');
      const { ids, total, totalIsEstimate, nextCursor } = await searchListings({ em, marketplace: m } as unknown as CommandContext, input, rates);
      const listings = await listingRowsInOrder(em, ids);
      const rel = await loadRelations(em, listings, shopRelationReads(em));
      const items = listings.map((l) => toShopListing(l, rel, { marketplace: m, publicUrl: PUBLIC_URL, rates }));
      return { items, total, ...(totalIsEstimate ? { total_is_estimate: true as const } : {}), ...(nextCursor ? { next_cursor: nextCursor } : {}) };
    });
  });

  // Routes answered by replaying the API's statements (ROUTES' `replay`), handed over once captured.
  for (const route of ROUTES.filter(isReplay)) {
    const path = route.path.split('?')[0]!;
    app.get(path, async (req, reply) => {
      if ('auth' in route && route.auth === 'secret' && !(await authenticate(req.headers.authorization))) return reply.code(401).send(unauthorized);
      const statements = replays.get(path);
      if (!statements) return reply.code(503).send({ type: 'about:blank', title: 'Not yet', status: 503, code: 'not_captured' });
      return { items: await replay(pool, statements) };
    });
  }

  return { app, close: async () => void (await app.close(), await pool.end()) };
}

/** The statements each replayed route runs, by path (sent by the benchmark after capturing the API's). */
const replays = new Map<string, Statement[]>();

/** The statements in order on one connection (transactions as the API sent them); the largest result's rows. */
async function replay(pool: pg.Pool, statements: Statement[]): Promise<Row[]> {
  const client = await pool.connect();
  try {
    let rows: Row[] = [];
    for (const s of statements) {
      const r = await client.query(s.values ? { text: s.text, values: s.values } : s.text);
      const last = Array.isArray(r) ? (r as pg.QueryResult[]).at(-1)! : r;
      if (last.rows.length > rows.length) rows = last.rows;
    }
    return rows;
  } catch (e) {
    await client.query('rollback').catch(() => {});
    throw e;
  } finally {
    client.release();
  }
}

/** The API's public URL in both servers (image URLs in listing bodies). */
export const PUBLIC_URL = 'http://127.0.0.1';

type Row = Record<string, unknown>;

/** A value written into SQL as MikroORM writes it (values inlined, not bound). */
function literal(client: pg.PoolClient, v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (v instanceof Date) return client.escapeLiteral(v.toISOString());
  return client.escapeLiteral(String(v));
}

/** `?` placeholders filled in order (the search's statements; its text has no other `?`). */
function inline(client: pg.PoolClient, text: string, params: readonly unknown[]): string {
  let i = 0;
  return text.replace(/\?/g, () => literal(client, params[i++]));
}

/**
 * A read as the API's run (one transaction as hm_app with the marketplace set, `begin` and the
 * settings sent with the first statement in one message, then `commit`; nothing when no statement ran).
 */
async function tenantRead<T>(pool: pg.Pool, marketplaceId: string, fn: (em: EntityManager) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  const q = (v: unknown) => literal(client, v);
  let begun = false;
  // one statement at a time on the client, in the order asked (the domain code runs finds in parallel)
  let last: Promise<unknown> = Promise.resolve();
  const run = (sql: string): Promise<Row[]> => {
    const text = begun ? sql : `begin; select set_config('role', ${q(TENANT_ROLE)}, true), set_config(${q(MARKETPLACE_SETTING)}, ${q(marketplaceId)}, true); ${sql}`;
    begun = true;
    const result = last.then(() => client.query(text)).then((r) => (Array.isArray(r) ? (r as pg.QueryResult[]).at(-1)!.rows : r.rows));
    last = result.catch(() => {});
    return result;
  };
  // what the domain code calls on the entity manager in these routes: tenantSql's checks and `execute`
  const em = {
    execute: (text: string, params: readonly unknown[] = []) => run(inline(client, text, params)),
    getFilterParams: (name: string) => (name === TENANT_FILTER ? { marketplaceId } : undefined),
    getSessionContext: () => ({ variables: { role: TENANT_ROLE, [MARKETPLACE_SETTING]: marketplaceId } }),
    getPlatform: () => ({ parseDate: (v: string) => new Date(v) }), // pg reads timestamps as Dates already
  } as unknown as EntityManager;
  try {
    const result = await fn(em);
    await last;
    if (begun) await client.query('commit');
    return result;
  } catch (e) {
    if (begun) await client.query('rollback').catch(() => {});
    throw e;
  } finally {
    client.release();
  }
}

async function main() {
  const role = process.argv[2] as Role;
  const databaseUrl = process.env.BENCH_DATABASE_URL;
  if ((role !== 'api' && role !== 'bare' && role !== 'api-kept') || !databaseUrl || !process.send) {
    throw new Error('usage: forked by bench/api-vs-bare.ts with BENCH_DATABASE_URL and a role (api | bare | api-kept)');
  }
  const server: { app: FastifyInstance; close(): Promise<void> } = role === 'bare' ? await bareServer(databaseUrl) : await apiServer(databaseUrl, role === 'api-kept');
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = server.app.server.address() as { port: number };

  const send = (msg: ServerMessage) => process.send!(msg);
  process.on('message', async (msg: ParentMessage) => {
    if (msg.type === 'cpu') {
      const { user, system } = process.cpuUsage();
      send({ type: 'cpu', id: msg.id, user, system, rss: process.memoryUsage.rss() });
    } else if (msg.type === 'replay') {
      replays.set(msg.path, msg.statements);
    } else if (msg.type === 'stop') {
      await server.close().catch(() => {});
      process.exit(0);
    }
  });
  // The benchmark went away (finished or crashed): never linger.
  process.on('disconnect', () => process.exit(0));
  send({ type: 'ready', port });
}

main().catch((err) => {
  console.error(`[bench server ${process.argv[2]}]`, err);
  process.exit(1);
});
