/**
 * Benchmark: listing search at 10k and 1M listings, in one run.
 *
 * For each size: a fresh database in one embedded PostgreSQL, migrated and filled by seedBench; the
 * API (buildApp) and the bare route (bench/search-bare.ts: plain Fastify + pg, the same statements
 * from the same search command, the same JSON) listening on 127.0.0.1; a fixed mix of queries sent
 * over HTTP with a publishable key to both, and the search statements alone (recorded from the search
 * command, same parameters) sent straight through `pg` — taking turns, after warm-ups, once both
 * answers were checked deep-equal. Reported per query: p50/p95 of each, the ratio API p50 / bare p50
 * (target ≤ 1.5) and, across sizes, p50 at 1M / at 10k (target ≤ 3). The plan of each statement at
 * the largest size is kept (EXPLAIN ANALYZE, BUFFERS) to show what it uses.
 *
 * Run: npm run -s bench:search   (BENCH_SEARCH_SIZES=10000,1000000; BENCH_SEARCH_RUNS=20;
 * BENCH_SEARCH_ONLY=<regexp> measures only the queries whose name matches; BENCH_SEARCH_KEEP=<dir>
 * keeps the cluster in <dir> and reuses a size's database when it is there, migrated to the current
 * schema — for trying a change at 1M without seeding again; a recorded run seeds afresh)
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '@hm/db/postgres';
import { createOrm, tenantEm } from '@hm/db/orm';
import { migrate } from '@hm/db/migrate';
import { MarketplaceSchema } from '@hm/db/entities';
import { freePort } from '@hm/db/testing/global-setup';
import { createApiKey } from '../packages/domain/src/api-keys/commands/manage-api-keys.js';
import { searchListings } from '../packages/domain/src/listing-search/commands/search-listings.js';
import { ZSearchInput } from '../packages/domain/src/listing-search/listing-search.schema.js';
import { loadRateBook } from '../packages/domain/src/rates/rate-book.js';
import { localPorts } from '@hm/domain/ports';
import { buildApp } from '../apps/api/src/app.js';
import { API_KEY_CACHE_MAX_MS } from '../apps/api/src/http/api-key-cache.js';
import { f, machine, percentile, recordingExecute, writeResults } from './lib.js';
import { RARE_WORD, seedBench } from './seed.js';
import { startBareSearch } from './search-bare.js';

const SIZES = (process.env.BENCH_SEARCH_SIZES ?? '10000,1000000').split(',').map(Number);
const RUNS = Number(process.env.BENCH_SEARCH_RUNS ?? 20);
const WARMUP = 3;
const ONLY = process.env.BENCH_SEARCH_ONLY ? new RegExp(process.env.BENCH_SEARCH_ONLY) : undefined;
const KEEP = process.env.BENCH_SEARCH_KEEP;


interface Query {
  name: string;
  query: Record<string, string | string[]>;
  /** pages to walk with the cursor before measuring (deep paging) */
  depth?: number;
}

const FACETS = 'category,term:brand,term:condition,price';

function queries(seed: Awaited<ReturnType<typeof seedBench>>): Query[] {
  const furniture = seed.categories.find((c) => c.slug === 'furniture')!.id;
  return [
    { name: `selective word (q=${RARE_WORD})`, query: { q: RARE_WORD } },
    { name: 'unselective word (q=chair)', query: { q: 'chair' } },
    { name: 'prefix of 2 letters (q=ka)', query: { q: 'ka' } },
    { name: 'category + 2 terms + price range', query: { category: furniture, term: [seed.brands[0]!, seed.brands[1]!], min_price: '100000', max_price: '1000000' } },
    { name: 'sort=price_asc across currencies', query: { sort: 'price_asc' } },
    { name: 'sort=popular', query: { sort: 'popular' } },
    { name: 'newest, page 20 (deep cursor)', query: {}, depth: 19 },
    // issue 28: infix, typo, a suggestion, facets
    { name: 'infix word (q=stol: also karmstol)', query: { q: 'stol' } },
    { name: 'typo (q=chiar)', query: { q: 'chiar' } },
    { name: 'no match, did_you_mean (q=sofx)', query: { q: 'sofx' } },
    { name: 'unselective word + 3 facets (q=chair)', query: { q: 'chair', facets: FACETS } },
    { name: 'category + 3 facets', query: { category: furniture, facets: FACETS } },
  ];
}

/** What seedBench said of a database it filled in an earlier run (BENCH_SEARCH_KEEP). */
async function keptSeed(databaseUrl: string): Promise<Awaited<ReturnType<typeof seedBench>>> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { id } = (await db.query(`select id from marketplaces where slug = 'bench'`)).rows[0] as { id: string };
    const categories = (await db.query(`select id, slug, parent_id from categories where marketplace_id = $1 order by slug`, [id])).rows.map((r) => ({ id: r.id, slug: r.slug, parentId: r.parent_id }));
    const terms = (await db.query(`select id, kind from catalog_terms where marketplace_id = $1 order by kind, slug`, [id])).rows as { id: string; kind: string }[];
    const listings = Number((await db.query(`select count(*) from listings where marketplace_id = $1`, [id])).rows[0].count);
    const of = (kind: string) => terms.filter((t) => t.kind === kind).map((t) => t.id);
    return { marketplaceId: id, categories, brands: of('brand'), colors: of('color'), listings, seconds: 0 };
  } finally {
    await db.end();
  }
}

const qs = (q: Record<string, string | string[]>) => {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) for (const x of Array.isArray(v) ? v : [v]) u.append(k, x);
  return u.toString();
};

interface Row {
  size: number;
  query: string;
  total: number;
  api: { p50: number; p95: number };
  bare: { p50: number; p95: number };
  sql: { p50: number; p95: number };
  /** API p50 / bare p50 */
  ratio: number;
  /** API p50 / SQL p50 */
  overSql: number;
  plan?: string[];
}

async function main() {
  const started = new Date();
  const machineInfo = machine();
  const dir = KEEP ? path.resolve(KEEP) : mkdtempSync(path.join(os.tmpdir(), 'hm-bench-search-'));
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, 0o755);
  console.error('bench:search starting Postgres…');
  const server = await startEmbeddedPostgres({ pgDir: path.join(dir, 'pg'), port: KEEP ? undefined : await freePort(), ephemeral: true });
  const rows: Row[] = [];
  const seeding: { size: number; seconds: number }[] = [];
  try {
    for (const size of SIZES) {
      const admin = new pg.Client({ connectionString: server.url });
      await admin.connect();
      const kept = KEEP !== undefined && (await admin.query(`select 1 from pg_database where datname = $1`, [`bench_${size}`])).rowCount === 1;
      if (!kept) await admin.query(`create database bench_${size}`);
      await admin.end();
      const url = new URL(server.url);
      url.pathname = `/bench_${size}`;
      const databaseUrl = url.toString();
      const orm = await createOrm(databaseUrl, { poolMax: 10 });
      await migrate(orm);
      console.error(`bench:search ${kept ? 'reusing' : 'seeding'} ${size.toLocaleString('en-US')} listings…`);
      const seed = kept ? await keptSeed(databaseUrl) : await seedBench(databaseUrl, { listings: size, marketplace: 'bench' });
      if (!kept) {
        seeding.push({ size, seconds: seed.seconds });
        await orm.em.getConnection().execute('vacuum analyze listings');
      }

      const em = orm.em.fork();
      const marketplace = await em.findOneOrFail(MarketplaceSchema, { id: seed.marketplaceId });
      const { token } = createApiKey(em, marketplace.id, 'publishable', 'test');
      await em.flush();
      const port = await freePort();
      const ports = localPorts({ dataDir: dir, mode: 'test' });
      const app = await buildApp({ orm, mode: 'test', apiUrl: `http://127.0.0.1:${port}`, ports, apiKeyCacheMs: API_KEY_CACHE_MAX_MS });
      await app.listen({ port, host: '127.0.0.1' });
      const bare = await startBareSearch({ databaseUrl, publicUrl: `http://127.0.0.1:${port}`, mode: 'test' });
      const sqlPool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
      sqlPool.on('error', () => {});
      const headers = { authorization: `Bearer ${token}` };

      try {
        for (const q of queries(seed).filter((x) => !ONLY || ONLY.test(x.name))) {
          // deep paging: walk the cursor to the page being measured
          let query = { ...q.query };
          for (let i = 0; i < (q.depth ?? 0); i++) {
            const page = (await (await fetch(`http://127.0.0.1:${port}/v1/listings?${qs(query)}`, { headers })).json()) as { next_cursor?: string };
            if (!page.next_cursor) break;
            query = { ...q.query, cursor: page.next_cursor };
          }
          // the SQL the API runs for this query, recorded from the search command itself
          const recorded: { text: string; values: unknown[] }[] = [];
          const tem = tenantEm(orm, marketplace.id);
          const recorder = recordingExecute(tem, (s) => recorded.push(s));
          const input = ZSearchInput.parse(query);
          const rates = await loadRateBook(tem, marketplace, new Date().toISOString().slice(0, 10));
          const result = await searchListings({ ...ports, em: recorder, marketplace }, input, rates);
          const statements = recorded.filter((r) => /from listings l/.test(r.text));

          // the same JSON from both, or the comparison means nothing
          const get = async (p: number) => {
            const res = await fetch(`http://127.0.0.1:${p}/v1/listings?${qs(query)}`, { headers });
            if (res.status !== 200) throw new Error(`${q.name} (${p === port ? 'api' : 'bare'}): ${res.status} ${await res.text()}`);
            return res.json();
          };
          const [fromApi, fromBare] = [await get(port), await get(bare.port)];
          if (!isDeepStrictEqual(fromApi, fromBare)) throw new Error(`${q.name}: the bare route's JSON differs from the API's:\n${JSON.stringify(fromApi).slice(0, 600)}\n${JSON.stringify(fromBare).slice(0, 600)}`);

          const apiTimes: number[] = [];
          const bareTimes: number[] = [];
          const sqlTimes: number[] = [];
          const timed = async (run: () => Promise<unknown>) => {
            const t = performance.now();
            await run();
            return performance.now() - t;
          };
          const http = (p: number) => async () => {
            const res = await fetch(`http://127.0.0.1:${p}/v1/listings?${qs(query)}`, { headers });
            if (res.status !== 200) throw new Error(`${q.name}: ${res.status} ${await res.text()}`);
            await res.arrayBuffer();
          };
          for (let i = 0; i < WARMUP + RUNS; i++) {
            // taking turns: API first in even runs, bare first in odd ones
            let a: number;
            let b: number;
            if (i % 2 === 0) {
              a = await timed(http(port));
              b = await timed(http(bare.port));
            } else {
              b = await timed(http(bare.port));
              a = await timed(http(port));
            }
            const c = await timed(() => Promise.all(statements.map((s) => sqlPool.query(s))));
            if (i >= WARMUP) {
              apiTimes.push(a);
              bareTimes.push(b);
              sqlTimes.push(c);
            }
          }
          const row: Row = {
            size,
            query: q.name,
            total: result.total,
            api: { p50: percentile(apiTimes, 0.5), p95: percentile(apiTimes, 0.95) },
            bare: { p50: percentile(bareTimes, 0.5), p95: percentile(bareTimes, 0.95) },
            sql: { p50: percentile(sqlTimes, 0.5), p95: percentile(sqlTimes, 0.95) },
            ratio: percentile(apiTimes, 0.5) / percentile(bareTimes, 0.5),
            overSql: percentile(apiTimes, 0.5) / percentile(sqlTimes, 0.5),
          };
          if (size === Math.max(...SIZES)) {
            // the planner EXPLAIN the count asks for reads no rows: shown as sent, not analysed
            const plans = await Promise.all(
              statements.map((s) => (s.text.startsWith('explain') ? { rows: [{ 'QUERY PLAN': s.text.replace(/\s+/g, ' ') }] } : sqlPool.query({ text: `explain (analyze, buffers, costs off) ${s.text}`, values: s.values }))),
            );
            row.plan = plans.flatMap((p, i) => [`-- statement ${i + 1}`, ...p.rows.map((r) => (typeof r['QUERY PLAN'] === 'string' ? r['QUERY PLAN'] : JSON.stringify(r['QUERY PLAN'])))]);
          }
          rows.push(row);
          console.error(`  ${size.toLocaleString('en-US').padStart(9)}  ${q.name.padEnd(36)} total ${String(result.total).padStart(7)}  API p50 ${row.api.p50.toFixed(2)} ms  bare p50 ${row.bare.p50.toFixed(2)} ms  SQL p50 ${row.sql.p50.toFixed(2)} ms  API/bare ×${row.ratio.toFixed(2)}`);
        }
      } finally {
        await sqlPool.end();
        await bare.close();
        await app.close();
        await orm.close(true);
      }
    }
  } finally {
    await server.stop();
    if (!KEEP) rmSync(dir, { recursive: true, force: true });
  }

  const smallest = Math.min(...SIZES);
  const largest = Math.max(...SIZES);
  const names = [...new Set(rows.map((r) => r.query))];
  const scaling = names.map((name) => {
    const a = rows.find((r) => r.query === name && r.size === smallest)!;
    const b = rows.find((r) => r.query === name && r.size === largest)!;
    return { query: name, apiP50Ratio: b.api.p50 / a.api.p50, bareP50Ratio: b.bare.p50 / a.bare.p50, sqlP50Ratio: b.sql.p50 / a.sql.p50 };
  });
  const report = { date: started.toISOString(), machine: machineInfo, runs: RUNS, sizes: SIZES, seeding, rows, scaling, targets: { apiOverBare: 1.5, largestOverSmallest: 3 } };
  const met = (v: number, target: number) => `${f(v, 2)} ${v <= target ? 'met' : 'missed'}`;
  const m = machineInfo;
  const md = [
    `# search — ${report.date}`,
    '',
    `GET /v1/listings through the API (HTTP, publishable key) vs the bare route (plain Fastify + \`pg\`, the same statements from the same search command, the same JSON — checked deep-equal first), and the search statements alone through \`pg\` for reference; ${RUNS} runs each after ${WARMUP} warm-ups, taking turns; sizes ${SIZES.map((s) => s.toLocaleString('en-US')).join(', ')} (one database each).`,
    '',
    `Machine: ${m.cpus} CPU (${m.cpuModel}), ${m.memoryGiB} GiB, ${m.platform}, Node ${m.node}${m.commit ? `, commit ${m.commit}` : ''}. Seeding: ${seeding.map((s) => `${s.size.toLocaleString('en-US')} in ${f(s.seconds)} s`).join(', ') || '—'}${KEEP ? ` (databases kept from an earlier run, BENCH_SEARCH_KEEP, are reused as they are: ${SIZES.filter((z) => !seeding.some((s) => s.size === z)).map((z) => z.toLocaleString('en-US')).join(', ') || 'none'})` : ''}. Load average at the start: ${m.loadAverageAtStart.join(' / ')}.`,
    '',
    '| listings | query | total | API p50 ms | API p95 ms | bare p50 ms | bare p95 ms | SQL p50 ms | API/bare (≤ 1.5) | API/SQL |',
    '|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|',
    ...rows.map(
      (r) =>
        `| ${r.size.toLocaleString('en-US')} | ${r.query} | ${r.total.toLocaleString('en-US')} | ${f(r.api.p50, 2)} | ${f(r.api.p95, 2)} | ${f(r.bare.p50, 2)} | ${f(r.bare.p95, 2)} | ${f(r.sql.p50, 2)} | ${met(r.ratio, 1.5)} | ${f(r.overSql, 2)} |`,
    ),
    '',
    `| query | API p50 ${largest.toLocaleString('en-US')} / ${smallest.toLocaleString('en-US')} (≤ 3) | bare p50 | SQL p50 |`,
    '|---|--:|--:|--:|',
    ...scaling.map((s) => `| ${s.query} | ${met(s.apiP50Ratio, 3)} | ${f(s.bareP50Ratio, 2)} | ${f(s.sqlP50Ratio, 2)} |`),
    '',
    'Targets: API/bare ≤ 1.5; p50 at the largest size / at the smallest ≤ 3. Plans at the largest size are in the JSON file.',
    '',
  ].join('\n');
  // a trial of some queries is shown, not recorded
  if (!ONLY) writeResults('search', report.date, report, md);
  process.stdout.write(md);
}

await main();
