/**
 * Benchmark: the full API stack versus a bare Fastify route doing the same database work.
 *
 *   GET /v1/marketplace   API key lookup (sha256 → api_keys) + marketplace row → toMarketplaceBody
 *   GET /v1/categories    the same lookup + categories rows → listCategories ordering/mapping
 *   GET /v1/listings/{id} the same lookup + a listing on sale, its photos, terms, site and seller → toShopListing
 *   GET /v1/listings?limit=24  the same lookup + the search command's statements (page, total), the
 *                         listings, their photos, terms and sites → toShopListing
 *
 * One run: embedded PostgreSQL in a temp dir, migrated and seeded with the demo marketplace; the API
 * (buildApp) and the bare server each in their own child process (bench/api-vs-bare.server.ts);
 * autocannon runs here, against 127.0.0.1 only. Before measuring it checks that both answer the same
 * JSON and send the same SQL. Reported: req/s, p50/p99 latency, server and Postgres CPU per request,
 * and the API/bare ratios. See bench/README.md.
 *
 * Run: npm run -s bench   (tunable: BENCH_CONNECTIONS, BENCH_WARMUP_S, BENCH_SETTLE_S, BENCH_SLICE_S, BENCH_ROUNDS;
 *      BENCH_ROUTES=console-users,events,… measures only those targets (names as in api-vs-bare.routes.ts);
 *      BENCH_CPU_PROF=<dir> writes V8 CPU profiles of both servers)
 */
import { mkdtempSync, chmodSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '@hm/db/postgres';
import { createOrm, crossTenantEm, tenantEm } from '@hm/db/orm';
import { MarketplaceSchema } from '@hm/db/entities';
import { ensureOperatorWithPassword } from '@hm/domain/operators';
import { migrate } from '@hm/db/migrate';
import { freePort } from '@hm/db/testing/global-setup';
import { createApiKey } from '../packages/domain/src/api-keys/commands/manage-api-keys.js';
import type { ParentMessage } from './api-vs-bare.server.js';
import { isReplay, ROUTES, type Role } from './api-vs-bare.routes.js';
import { machine, machineCpuSeconds, writeResults } from './lib.js';
import { seedBench } from './seed.js';
import { captureStatements, checkSameResponses, onPostgresLog, ROLES, sleep, type HeadersOf } from './api-vs-bare.checks.js';
import { conditionalRatioOf, loadWarnings, markdown, ratiosOf, summarise, type ConditionalRatio } from './api-vs-bare.report.js';
import { CONFIG } from './api-vs-bare.config.js';
import { cleanup, cleanups, startServer, type Server } from './api-vs-bare.processes.js';
import { load, measureSlice, type Target } from './api-vs-bare.measure.js';
import { addConsoleRows, addPhotosAndShowroom } from './api-vs-bare.fixtures.js';

async function main() {
  const started = new Date();
  const machineInfo = machine(); // before we load the machine ourselves
  const warnings: string[] = [];
  const idle0 = machineCpuSeconds();
  await sleep(1000);
  const busyAtStart = machineCpuSeconds().busy - idle0.busy;
  if (busyAtStart > 0.25 * machineInfo.cpus) {
    warnings.push(`Before starting, other processes kept ${busyAtStart.toFixed(2)} of ${machineInfo.cpus} CPUs busy: absolute numbers are noisy; ratios less so.`);
  }
  const hardLimit = setTimeout(() => {
    console.error(`bench: over ${CONFIG.hardLimitSeconds} s, giving up`);
    void cleanup().finally(() => process.exit(1));
  }, CONFIG.hardLimitSeconds * 1000);
  cleanups.push(() => clearTimeout(hardLimit));

  // 1. Database: throwaway embedded Postgres, migrated, demo marketplace.
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hm-bench-pg-'));
  chmodSync(dir, 0o755); // the postgres user must reach its data directory inside
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const pgDir = path.join(dir, 'pg');
  console.error('bench: starting Postgres…');
  const db: EmbeddedDatabase = await startEmbeddedPostgres({ pgDir, port: await freePort(), ephemeral: true, onLog: onPostgresLog });
  cleanups.push(() => db.stop());
  const postmasterPid = Number(readFileSync(path.join(pgDir, 'postmaster.pid'), 'utf8').split('\n')[0]);

  const orm = await createOrm(db.url);
  await migrate(orm);
  // The bench marketplace (bench/seed.ts: 30 categories two levels deep, brand/colour/condition
  // terms, listings on sale), each listing with three ready photos, every fourth stored at a
  // showroom (a site on its page); a publishable key, as a storefront calls with.
  const seed = await seedBench(db.url, { listings: CONFIG.listings, marketplace: 'bench', quiet: true });
  const sql = orm.em.getConnection();
  await addPhotosAndShowroom(sql, seed.marketplaceId);
  const em = orm.em.fork();
  const { token } = createApiKey(em, seed.marketplaceId, 'publishable', 'test');
  const { token: secret } = createApiKey(em, seed.marketplaceId, 'secret', 'test');
  await em.flush();
  // the back office's list pages are read by a signed-in operator (a viewer) of the bench marketplace
  const benchMarketplace = await crossTenantEm(orm).findOneOrFail(MarketplaceSchema, { id: seed.marketplaceId });
  await ensureOperatorWithPassword(tenantEm(orm, seed.marketplaceId), benchMarketplace, { email: 'viewer@bench.example', role: 'viewer', password: 'bench operator password' }, new Date());
  // The listing page: the newest listing on sale with a site (photos, three terms and a site to load).
  const [shown] = await sql.execute<{ id: string }[]>(`select id from listings where on_sale and site_id is not null order by published_at desc, id limit 1`);
  if (!shown) throw new Error('no listing on sale with a site');
  const paths = Object.fromEntries(ROUTES.map((r) => [r.name, r.path.replace('{id}', shown.id)])) as Record<string, string>;
  await orm.close(true);

  // Log statements from here on (new sessions pick it up), to compare what both servers send.
  const admin = new pg.Client({ connectionString: db.url });
  admin.on('error', () => {}); // terminated by Postgres' shutdown if we fail before ending it
  await admin.connect();
  await admin.query(`alter system set log_statement = 'all'`);
  await admin.query('select pg_reload_conf()');
  for (let i = 0; i < 50; i++) {
    const probe = new pg.Client({ connectionString: db.url });
    await probe.connect();
    const { rows } = await probe.query('show log_statement');
    await probe.end();
    if (rows[0].log_statement === 'all') break;
    await sleep(50);
  }

  // 2. Servers, one process each.
  console.error('bench: starting servers…');
  const servers = Object.fromEntries(await Promise.all(ROLES.map(async (role) => [role, await startServer(role, db.url)] as const))) as Record<Role, Server>;
  for (const s of Object.values(servers)) cleanups.push(() => s.stop());

  // The storefront's call: a publishable key (both routes accept any key of the mode). The event feed
  // takes the secret key; the back office an operator's session, signed in here. Sign-ups through the
  // API first: users for the users page, their `user.created` events for the feed, and sign-ins in the audit trail.
  const headers = { authorization: `Bearer ${token}` };
  for (let i = 0; i < 30; i++) {
    const res = await fetch(`${servers.api.url}/v1/users`, { method: 'POST', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, body: JSON.stringify({ email: `bench${i}@example.com`, password: 'bench user password' }) });
    if (res.status !== 201) throw new Error(`sign-up: ${res.status} ${await res.text()}`);
  }
  // The back office's orders, support and audit pages on full pages (fixtures: both sides read the same rows).
  await addConsoleRows(admin, seed.marketplaceId);
  const signIn = await fetch(`${servers.api.url}/console/v1/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ marketplace: 'bench', email: 'viewer@bench.example', password: 'bench operator password' }) });
  if (signIn.status !== 201) throw new Error(`operator sign-in: ${signIn.status} ${await signIn.text()}`);
  const operatorToken = ((await signIn.json()) as { token: string }).token;
  const headersOf: HeadersOf = (route) =>
    'auth' in route ? { authorization: `Bearer ${route.auth === 'operator' ? operatorToken : secret}` } : headers;

  // 3. Same answers, same SQL.
  const responses = await checkSameResponses(servers, headersOf, paths);
  const statements = await captureStatements(servers, headersOf, paths, (path, list) => servers.bare.child.send({ type: 'replay', path, statements: list } satisfies ParentMessage));
  await admin.query('alter system reset log_statement');
  await admin.query('select pg_reload_conf()');
  await admin.end();
  console.error('bench: responses equal, same statements per request');

  // 4. Warm-up, then alternating measured slices (API first in even rounds, bare first in odd ones).
  const targets: Target[] = ROUTES.flatMap((route) =>
    ROLES.map((role) => ({ route: route.name, role, server: servers[role], url: servers[role].url + paths[route.name], latenciesMs: [], slices: [] })),
  );
  console.error(`bench: warm-up ${CONFIG.warmupSeconds} s per target…`);
  const headersOfTarget = (t: Target) => headersOf(ROUTES.find((r) => r.name === t.route)!);
  for (const t of targets) await load(t.url, headersOfTarget(t), CONFIG.warmupSeconds);
  console.error(`bench: measuring ${CONFIG.rounds} × ${CONFIG.sliceSeconds} s per target…`);
  for (let round = 0; round < CONFIG.rounds; round++) {
    for (const route of ROUTES) {
      const order = round % 2 === 0 ? ROLES : [...ROLES].reverse();
      for (const role of order) {
        const t = targets.find((x) => x.route === route.name && x.role === role)!;
        await measureSlice(t, headersOfTarget(t), postmasterPid);
      }
    }
  }

  // 5. Conditional reads: the API's full answer (computed: the read cache off, as the API above)
  // against the 304 of an API process keeping public answers (API_READ_CACHE, as `npm start`) to an
  // If-None-Match naming the answer's ETag — the same tag, checked — and that process's own full
  // answer (kept), per route, the order alternating in each round like API/bare above.
  console.error(`bench: conditional reads, ${CONFIG.rounds} × ${CONFIG.sliceSeconds} s per route and kind…`);
  const kept = await startServer('api-kept', db.url);
  cleanups.push(() => kept.stop());
  const conditionalTargets = await Promise.all(
    ROUTES.filter((route) => !isReplay(route)).map(async (route) => {
      const res = await fetch(servers.api.url + paths[route.name], { headers });
      const etag = res.headers.get('etag');
      if (res.status !== 200 || !etag) throw new Error(`GET ${paths[route.name]}: ${res.status}, ETag ${etag}`);
      const keptUrl = kept.url + paths[route.name];
      const keptRes = await fetch(keptUrl, { headers });
      if (keptRes.headers.get('etag') !== etag || (await keptRes.text()) !== (await res.text())) throw new Error(`GET ${paths[route.name]}: the kept answer is not the computed one (ETag ${keptRes.headers.get('etag')} vs ${etag})`);
      const again = await fetch(keptUrl, { headers: { ...headers, 'if-none-match': etag } });
      if (again.status !== 304) throw new Error(`GET ${keptUrl} with If-None-Match: ${again.status}, not 304`);
      const target = (server: Server, url: string): Target => ({ route: route.name, role: server.role, server, url, latenciesMs: [], slices: [] });
      return { route: route.name, etag, full: target(servers.api, servers.api.url + paths[route.name]), kept: target(kept, keptUrl), notModified: target(kept, keptUrl) };
    }),
  );
  for (const c of conditionalTargets) {
    await load(c.full.url, headers, Math.min(CONFIG.warmupSeconds, 2));
    await load(c.notModified.url, { ...headers, 'if-none-match': c.etag }, Math.min(CONFIG.warmupSeconds, 2));
  }
  for (let round = 0; round < CONFIG.rounds; round++) {
    for (const c of conditionalTargets) {
      const all = [() => measureSlice(c.full, headers, postmasterPid), () => measureSlice(c.kept, headers, postmasterPid), () => measureSlice(c.notModified, { ...headers, 'if-none-match': c.etag }, postmasterPid, true)];
      for (const run of round % 2 === 0 ? all : [...all].reverse()) await run();
    }
  }
  const conditional: ConditionalRatio[] = conditionalTargets.map(conditionalRatioOf);

  // 6. Report.
  const summaries = targets.map(summarise);
  warnings.push(...loadWarnings(summaries));
  for (const w of warnings) console.error(`bench: warning: ${w}`);
  const ratios = ratiosOf(summaries);
  const date = started.toISOString();
  const report = {
    benchmark: 'api-vs-bare',
    date,
    durationSeconds: Math.round((Date.now() - started.getTime()) / 1000),
    machine: machineInfo,
    config: CONFIG,
    warnings,
    checks: { listingId: shown.id, responses, statementsPerRequest: statements },
    targets: summaries,
    ratios,
    conditional,
  };
  const md = markdown(report);
  writeResults('api-vs-bare', date, report, md);
  process.stdout.write('\n' + md);
}

main()
  .then(() => cleanup())
  .then(() => process.exit(0))
  .catch(async (err) => {
    console.error('bench failed:', err);
    await cleanup();
    process.exit(1);
  });
