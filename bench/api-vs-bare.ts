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
import { fork, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '@hm/db/postgres';
import { createOrm, crossTenantEm, tenantEm } from '@hm/db/orm';
import { MarketplaceSchema } from '@hm/db/entities';
import { ensureOperatorWithPassword } from '@hm/domain/operators';
import { migrate } from '@hm/db/migrate';
import { freePort } from '@hm/db/testing/global-setup';
import { createApiKey } from '../packages/domain/src/api-keys/commands/manage-api-keys.js';
import type { ParentMessage, ServerMessage } from './api-vs-bare.server.js';
import { isReplay, ROUTES, type Role } from './api-vs-bare.routes.js';
import { machine, machineCpuSeconds, postgresCpuSeconds, writeResults } from './lib.js';
import { seedBench } from './seed.js';
import { captureStatements, checkSameResponses, onPostgresLog, ROLES, sleep, type HeadersOf } from './api-vs-bare.checks.js';
import { markdown, summarise, type ConditionalRatio, type Measured, type Ratio, type Slice } from './api-vs-bare.report.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));

const num = (name: string, fallback: number) => {
  const v = process.env[name];
  const n = v === undefined || v === '' ? fallback : Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number`);
  return n;
};
const CONFIG = {
  connections: num('BENCH_CONNECTIONS', 10),
  /** unmeasured load on each target before the first measured slice */
  warmupSeconds: num('BENCH_WARMUP_S', 5),
  /** unmeasured load right before every measured slice (re-opens pools idle since the last slice) */
  settleSeconds: num('BENCH_SETTLE_S', 1),
  /** measured seconds per slice; each target gets `rounds` slices */
  sliceSeconds: num('BENCH_SLICE_S', 2.5),
  rounds: num('BENCH_ROUNDS', 4),
  /** listings on sale in the bench marketplace (the search's first page is 24 of them) */
  listings: num('BENCH_LISTINGS', 1000),
  pipelining: 1,
  /** the whole run is killed past this, whatever happens (12 targets × 2 sides and the conditional part take ~12 min with the defaults) */
  hardLimitSeconds: num("BENCH_HARD_LIMIT_S", 1500),
};


// ---------------------------------------------------------------------------------------------
// Processes: Postgres, the two servers, cleanup that always runs.

interface Server {
  role: Role;
  child: ChildProcess;
  url: string;
  cpu(): Promise<{ user: number; system: number; rss: number }>;
  stop(): Promise<void>;
}

function startServer(role: Role, databaseUrl: string): Promise<Server> {
  // fork() reuses this process's execArgv, i.e. tsx's loader: the child runs TypeScript too.
  // BENCH_CPU_PROF=<dir>: V8 CPU profiles of both servers (written when they exit), to see where time goes.
  const profDir = process.env.BENCH_CPU_PROF;
  const child = fork(path.join(HERE, 'api-vs-bare.server.ts'), [role], {
    execArgv: [...process.execArgv, ...(profDir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profDir)}`, `--cpu-prof-name=${role}-\${pid}.cpuprofile`] : [])],
    env: { ...process.env, BENCH_DATABASE_URL: databaseUrl, NODE_ENV: 'production' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let nextId = 0;
  const pending = new Map<number, (m: ServerMessage & { type: 'cpu' }) => void>();
  child.on('message', (m: ServerMessage) => {
    if (m.type !== 'cpu') return;
    pending.get(m.id)?.(m);
    pending.delete(m.id);
  });
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`${role} server exited (${code}) before it was ready`));
    child.once('exit', onExit);
    child.on('message', (m: ServerMessage) => {
      if (m.type !== 'ready') return;
      child.off('exit', onExit);
      resolve({
        role,
        child,
        url: `http://127.0.0.1:${m.port}`,
        cpu: () =>
          new Promise((res) => {
            const id = nextId++;
            pending.set(id, res);
            child.send({ type: 'cpu', id } satisfies ParentMessage);
          }),
        stop: () =>
          new Promise<void>((res) => {
            if (child.exitCode !== null || child.signalCode !== null) return res();
            const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
            child.once('exit', () => (clearTimeout(kill), res()));
            child.send({ type: 'stop' } satisfies ParentMessage, (err) => err && child.kill('SIGTERM'));
          }),
      });
    });
  });
}

const cleanups: (() => Promise<void> | void)[] = [];
let cleaning: Promise<void> | undefined;
function cleanup(): Promise<void> {
  return (cleaning ??= (async () => {
    for (const fn of cleanups.reverse()) {
      try {
        await fn();
      } catch (err) {
        console.error('cleanup:', err);
      }
    }
  })());
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void cleanup().finally(() => process.exit(130)));
}

// ---------------------------------------------------------------------------------------------
// Load generation.

interface Target extends Measured {
  server: Server;
  url: string;
}

function load(url: string, headers: Record<string, string>, seconds: number, onLatency?: (ms: number) => void) {
  return new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ url, headers, connections: CONFIG.connections, pipelining: CONFIG.pipelining, duration: seconds }, (err, result) =>
      err ? reject(err) : resolve(result),
    );
    // autocannon's own histogram stores whole milliseconds; keep the exact times for sub-ms percentiles.
    if (onLatency) instance.on('response', (_client, _status, _bytes, responseTime) => onLatency(responseTime));
  });
}

async function measureSlice(t: Target, headers: Record<string, string>, postmasterPid: number, expect304 = false) {
  await load(t.url, headers, CONFIG.settleSeconds);
  const cpu0 = await t.server.cpu();
  const pg0 = postgresCpuSeconds(postmasterPid);
  const own0 = process.cpuUsage();
  const machine0 = machineCpuSeconds();
  const r = await load(t.url, headers, CONFIG.sliceSeconds, (ms) => t.latenciesMs.push(ms));
  const machine1 = machineCpuSeconds();
  const own = process.cpuUsage(own0);
  const pg1 = postgresCpuSeconds(postmasterPid);
  const cpu1 = await t.server.cpu();
  const serverCpuSeconds = (cpu1.user + cpu1.system - cpu0.user - cpu0.system) / 1e6;
  const loadGeneratorCpuSeconds = (own.user + own.system) / 1e6;
  const slice: Slice = {
    seconds: r.duration,
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    rps: r.requests.total / r.duration,
    rpsSampleMean: r.requests.mean,
    rpsSampleStddev: r.requests.stddev,
    serverCpuSeconds,
    postgresCpuSeconds: pg1 - pg0,
    loadGeneratorCpuSeconds,
    otherCpuSeconds: machine1.busy - machine0.busy - serverCpuSeconds - (pg1 - pg0) - loadGeneratorCpuSeconds,
    stealCpuSeconds: machine1.steal - machine0.steal,
  };
  t.slices.push(slice);
  if (expect304) {
    // every answer a 304: autocannon counts them as non-2xx
    if (r['2xx'] || r['3xx'] !== r.requests.total || slice.errors || slice.timeouts) throw new Error(`${t.route}/304: ${r['2xx']} × 2xx, ${r['3xx']} × 3xx of ${r.requests.total}, ${slice.errors} errors, ${slice.timeouts} timeouts in a slice`);
  } else if (slice.non2xx || slice.errors || slice.timeouts) {
    throw new Error(`${t.route}/${t.role}: ${slice.non2xx} non-2xx, ${slice.errors} errors, ${slice.timeouts} timeouts in a slice`);
  }
  console.error(`  ${t.route.padEnd(11)} ${(expect304 ? '304' : t.role).padEnd(4)} ${slice.rps.toFixed(0).padStart(7)} req/s`);
}

// ---------------------------------------------------------------------------------------------

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
  await sql.execute(
    `insert into listing_images (id, marketplace_id, created_at, listing_id, position, status, format, bytes, width, height, updated_at)
     select gen_random_uuid(), l.marketplace_id, now(), l.id, p, 'ready', 'jpeg', 250000, 1600, 1200, now() from listings l, generate_series(0, 2) p`,
  );
  await sql.execute(
    `insert into sites (id, marketplace_id, created_at, kind, name, line1, postal_code, city, country, active, buyer_pickup, opening_hours, updated_at)
     values (gen_random_uuid(), ?, now(), 'showroom', 'Bench showroom', 'Storgatan 1', '111 22', 'Stockholm', 'SE', true, true, 'Mon–Fri 10–18', now())`,
    [seed.marketplaceId],
  );
  await sql.execute(
    `update listings l set site_id = s.id, custody = 'stored' from sites s where s.marketplace_id = l.marketplace_id and ('x' || substr(l.id::text, 1, 8))::bit(32)::int % 4 = 0`,
  );
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
  // The back office's orders, support and audit pages on full pages (both sides read the same rows): 48
  // paid orders of the signed-up users, each with its seller's payout, a support conversation of each
  // user, and 48 approvals from the command line in the audit trail.
  await admin.query(
    `insert into orders (id, marketplace_id, listing_id, buyer_id, seller_id, status, state_entered_at, quantity, currency, total, line_items, delivery, fulfilment, history, payment_provider, payment_id, payment_due_at, created_at, updated_at)
     select gen_random_uuid(), l.marketplace_id, l.id, u.id, l.seller_id, 'purchased', now(), 1, l.price_currency, l.price_amount,
       jsonb_build_array(jsonb_build_object('code', 'item', 'label', l.title, 'unit_price', l.price_amount, 'quantity', 1, 'amount', l.price_amount)),
       '{"method": "pickup"}', 'seller',
       jsonb_build_array(jsonb_build_object('transition', 'place', 'from', '(new)', 'to', 'pending_payment', 'actor', 'buyer', 'at', to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))),
       'local', 'pay_bench_' || l.n, now() + interval '1 hour', now() - l.n * interval '1 minute', now()
     from (select *, row_number() over (order by id) as n from listings where marketplace_id = $1 and price_amount is not null limit 48) l
     join (select id, row_number() over (order by id) - 1 as k from users where marketplace_id = $1 and email like 'bench%@example.com') u on u.k = l.n % 30`,
    [seed.marketplaceId],
  );
  await admin.query(
    `insert into payouts (id, marketplace_id, order_id, seller_id, currency, subtotal, commission, storage_fee, storage_months, amount, status, created_at, updated_at)
     select gen_random_uuid(), marketplace_id, id, seller_id, currency, total, total / 10, 0, 0, total - total / 10, 'pending', now(), now() from orders where marketplace_id = $1`,
    [seed.marketplaceId],
  );
  await admin.query(
    `insert into conversations (id, marketplace_id, kind, user_a, last_message, last_message_at, created_at)
     select gen_random_uuid(), marketplace_id, 'support', id, 'Where is my parcel?', now() - row_number() over (order by id) * interval '1 minute', now()
     from users where marketplace_id = $1 and email like 'bench%@example.com'`,
    [seed.marketplaceId],
  );
  await admin.query(
    `insert into audit_entries (id, marketplace_id, created_at, actor_type, action, target_type, target_id, data, request_id)
     select gen_random_uuid(), $1::uuid, now() - n * interval '1 minute', 'cli', 'listing.approve', 'listing', l.id::text, jsonb_build_object('id', l.id), 'req_bench_' || n
     from (select id, row_number() over (order by id) as n from listings where marketplace_id = $1 limit 48) l`,
    [seed.marketplaceId],
  );
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
  const conditional: ConditionalRatio[] = conditionalTargets.map((c) => {
    const full = summarise(c.full);
    const keptFull = summarise(c.kept);
    const notModified = summarise(c.notModified);
    const cpu = (s: typeof full) => s.serverCpuUsPerRequest + s.postgresCpuUsPerRequest;
    return {
      route: c.route,
      fullRps: full.rps,
      keptRps: keptFull.rps,
      notModifiedRps: notModified.rps,
      fullServerCpuUs: full.serverCpuUsPerRequest,
      keptServerCpuUs: keptFull.serverCpuUsPerRequest,
      notModifiedServerCpuUs: notModified.serverCpuUsPerRequest,
      fullPostgresCpuUs: full.postgresCpuUsPerRequest,
      notModifiedPostgresCpuUs: notModified.postgresCpuUsPerRequest,
      costByThroughput: full.rps / notModified.rps,
      costByCpu: cpu(notModified) / cpu(full),
      costOfKeptByCpu: cpu(notModified) / cpu(keptFull),
    };
  });

  // 6. Report.
  const summaries = targets.map(summarise);
  for (const t of summaries) {
    if (t.otherCpus > 0.3) warnings.push(`${t.route}/${t.role}: ${t.otherCpus.toFixed(2)} CPUs were busy with something else while measuring.`);
    const spread = (Math.max(...t.rpsPerSlice) - Math.min(...t.rpsPerSlice)) / t.rps;
    if (spread > 0.3) warnings.push(`${t.route}/${t.role}: req/s varied ${Math.round(spread * 100)} % between slices (${t.rpsPerSlice.join(', ')}): something else used the CPUs.`);
  }
  for (const w of warnings) console.error(`bench: warning: ${w}`);
  const ratios: Ratio[] = ROUTES.map((route) => {
    const api = summaries.find((s) => s.route === route.name && s.role === 'api')!;
    const bare = summaries.find((s) => s.route === route.name && s.role === 'bare')!;
    return {
      route: route.name,
      throughput: api.rps / bare.rps,
      p50: api.latencyMs.p50 / bare.latencyMs.p50,
      p99: api.latencyMs.p99 / bare.latencyMs.p99,
      serverCpuPerRequest: api.serverCpuUsPerRequest / bare.serverCpuUsPerRequest,
    };
  });
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
