/**
 * Benchmark: a storefront-like mix at rising concurrency until p95 passes 200 ms — where one API
 * process, one worker process and one Postgres on this machine reach their knee, and which of them
 * is busiest there (what to scale first).
 *
 *   mix          the storefront mix of bench/storefront-mix.ts (one definition with bench:events): 70 %
 *                listing search, 20 % listing pages, 10 % favourites and sign-ins, seeded so every
 *                climb sends the same sequence.
 *   processes    the API (`startApi`, no worker, API key cache 1 s as `npm start`) and the job worker
 *                (`startApi` with `http: false`, as `npm run worker`) each in its own process, Postgres
 *                embedded; autocannon in this process. CPU of each from /proc and process.cpuUsage.
 *   steps        concurrency 1, 2, 4, 8, 16, 32, 64, 128 connections: 1 s unmeasured, then
 *                BENCH_LOAD_STEP_S (8) measured; stops after the first step whose p95 is over 200 ms (BENCH_LOAD_P95_MS)
 *                (or that fails requests). The knee: of the steps within 200 ms, the one serving the most
 *                requests/s (the issue asks for req/s at p95 ≤ 200 ms; past the knee a step can serve fewer), and its req/s.
 *   read cache   (issue 30 item 1) by default every deployment climbs twice in the one run: the API
 *                computing every read (API_READ_CACHE=false, the read path before the cache) and then
 *                keeping public reads (as `npm start`), the request sequence seeded again for each: the
 *                knee of each and their ratio. BENCH_LOAD_READ_CACHE=off or on runs one climb.
 *   statements   Postgres preloads pg_stat_statements, reset before each climb; the statements that took
 *                most of its execution time in each are reported.
 *
 * topology   with BENCH_LOAD_TOPOLOGY=1 (or `--topology`), after that one-process run, in the same run
 *              and over the same data and request sequence: BENCH_LOAD_API_PROCESSES (2) API processes
 *              behind a load balancer (Node's `cluster`: the primary accepts connections and hands them
 *              round-robin to its API processes, which share one port), BENCH_LOAD_WORKERS (2) worker
 *              processes, and PgBouncer (Debian's `pgbouncer`, `apt-get install pgbouncer`) in transaction
 *              mode with BENCH_LOAD_PGBOUNCER_POOL (8) server connections in front of Postgres for the API
 *              processes; the workers and the key-change listeners connect directly (LISTEN, advisory
 *              locks). Without pgbouncer the topology part is skipped with a line saying so. Reported: each
 *              knee, req/s per API process and per Postgres CPU there, and their ratios to the one-process run.
 *
 * Bounded: ~2 minutes per climb on 2 cores (seeding BENCH_LOAD_LISTINGS, default 20 000, takes a few
 * seconds): two climbs, four with the topology; gives up after 240 s per climb. Run: npm run -s bench:load
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PGBOUNCER } from '@hm/db/testing/pgbouncer';
import { machine, startApiStack, writeResults } from './lib.js';
import { seedBench } from './seed.js';
import { MIX, MIX_USERS, mixUsers } from './storefront-mix.js';
import { API_PROCESSES, LISTINGS, P95_LIMIT_MS, PGBOUNCER_POOL, READ_CACHE_MODES, STEP_S, STEPS, TOPOLOGY, WORKER_CONCURRENCY, WORKERS, type Deployment } from './load.settings.js';
import { child, type Role } from './load.processes.js';
import { climb as climbTo, type Climb, type ClimbRun } from './load.climb.js';
import { climbOf, loadMarkdown } from './load.report.js';

async function main() {
  const started = new Date();
  const machineInfo = machine();
  const limitS = 240 * READ_CACHE_MODES.length * (TOPOLOGY ? 2 : 1);
  const giveUp = setTimeout(() => {
    console.error(`bench:load took over ${limitS} s; giving up`);
    process.exit(1);
  }, limitS * 1000);
  const stack = await startApiStack('load', { preload: ['pg_stat_statements'] });
  try {
    const { keys } = await stack.operator.marketplace.create({ name: 'Bench', slug: 'bench', currencies: ['SEK', 'EUR', 'USD'], locales: ['en', 'sv'], storefront_url: 'http://127.0.0.1:3000' });
    console.error(`bench:load seeding ${LISTINGS.toLocaleString('en-US')} listings…`);
    const seed = await seedBench(stack.db.url, { listings: LISTINGS, marketplace: 'bench', quiet: true });
    await stack.orm.em.getConnection().execute('vacuum analyze');
    await stack.orm.em.getConnection().execute('create extension if not exists pg_stat_statements');
    const ids = (await stack.orm.em.getConnection().execute<{ id: string }[]>('select id from listings where marketplace_id = ? and on_sale order by random() limit 2000', [seed.marketplaceId])).map((r) => r.id);

    console.error(`bench:load ${MIX_USERS} users with passwords…`);
    const users = await mixUsers(stack.apiUrl, keys.secret);
    const postmasterPid = Number(readFileSync(path.join(stack.dir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
    const run: ClimbRun = { stack, keys, seed, ids, users, postmasterPid };

    const deployments: Deployment[] = [{ name: 'one-process', apiProcesses: 1, workers: 1, pgbouncer: false }];
    let topologySkipped: string | null = null;
    if (TOPOLOGY && !PGBOUNCER) {
      topologySkipped = 'pgbouncer is not installed (Debian/Ubuntu: `sudo apt-get install pgbouncer`): the topology run was skipped';
      console.error(`bench:load ${topologySkipped}`);
    } else if (TOPOLOGY) deployments.push({ name: 'topology', apiProcesses: API_PROCESSES, workers: WORKERS, pgbouncer: true });

    const runs: Climb[] = [];
    let stopPrevious = async () => {};
    try {
      for (const d of deployments)
        for (const readCache of READ_CACHE_MODES) {
          const climb = await climbTo(run, d, readCache, stopPrevious);
          runs.push(climb.result);
          stopPrevious = climb.stop;
        }
    } finally {
      await stopPrevious();
    }

    const find = (name: Deployment['name'], readCache: boolean) => climbOf(runs, name, readCache);
    const ratio = (a: number | null | undefined, b: number | null | undefined) => (a != null && b ? a / b : null);
    const report = {
      date: started.toISOString(),
      machine: machineInfo,
      settings: {
        listings: LISTINGS,
        stepSeconds: STEP_S,
        steps: STEPS,
        p95LimitMs: P95_LIMIT_MS,
        users: MIX_USERS,
        workerConcurrency: WORKER_CONCURRENCY,
        readCacheModes: READ_CACHE_MODES,
        topology: TOPOLOGY ? { apiProcesses: API_PROCESSES, workers: WORKERS, pgbouncerPool: PGBOUNCER_POOL } : null,
      },
      mix: MIX,
      /** every climb of this run: each deployment with the read cache off and/or on */
      runs,
      topologySkipped,
      /** per deployment: knee req/s with the read cache ÷ without, same run, same request sequence */
      kneeRatioReadCache: Object.fromEntries(deployments.map((d) => [d.name, ratio(find(d.name, true)?.knee?.rps, find(d.name, false)?.knee?.rps)])),
      /** per read-cache setting: topology ÷ one-process, from this run */
      topologyRatios: TOPOLOGY
        ? Object.fromEntries(
            READ_CACHE_MODES.map((rc) => {
              const [one, topo] = [find('one-process', rc), find('topology', rc)];
              return [`readCache=${rc}`, topo && one ? { knee: ratio(topo.knee?.rps, one.knee?.rps), perApiProcess: ratio(topo.perApiProcessAtKnee, one.perApiProcessAtKnee), perPostgresCpu: ratio(topo.perPostgresCpuAtKnee, one.perPostgresCpuAtKnee) } : null];
            }),
          )
        : null,
    };
    const md = loadMarkdown(report, runs, deployments, topologySkipped);
    writeResults('load', report.date, report, md);
    process.stdout.write(md);
  } finally {
    await stack.stop();
    clearTimeout(giveUp);
  }
}

const at = process.argv.indexOf('--child');
if (at >= 0) await child(process.argv[at + 1] as Role);
else await main();
