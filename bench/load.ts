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
import { fork, type ChildProcess } from 'node:child_process';
import cluster from 'node:cluster';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGBOUNCER, startPgBouncer, type PgBouncer } from '@hm/db/testing/pgbouncer';
import { f, machine, machineCpuSeconds, percentileOfSorted, postgresCpuSeconds, processCpuSeconds, startApi, startApiStack, writeResults } from './lib.js';
import { seedBench } from './seed.js';
import { MIX, MIX_USERS, checkMix, mixUsers, runMix, storefrontMix, type Kind } from './storefront-mix.js';

const LISTINGS = Number(process.env.BENCH_LOAD_LISTINGS ?? 20_000);
const STEP_S = Number(process.env.BENCH_LOAD_STEP_S ?? 8);
const STEPS = (process.env.BENCH_LOAD_STEPS ?? '1,2,4,8,16,32,64,128').split(',').map(Number);
/** the knee's p95 limit (200 ms); a run on a machine busy with other work may raise it to compare deployments at all (say so beside its numbers) */
const P95_LIMIT_MS = Number(process.env.BENCH_LOAD_P95_MS ?? 200);
const WORKER_CONCURRENCY = 4;
const TOPOLOGY = process.env.BENCH_LOAD_TOPOLOGY === '1' || process.argv.includes('--topology');
const API_PROCESSES = Number(process.env.BENCH_LOAD_API_PROCESSES ?? 2);
const WORKERS = Number(process.env.BENCH_LOAD_WORKERS ?? 2);
const PGBOUNCER_POOL = Number(process.env.BENCH_LOAD_PGBOUNCER_POOL ?? 8);
/**
 * `both` (default): each deployment's climb twice in one run, the API computing every read
 * (API_READ_CACHE=false, as before the read cache) and then keeping public reads (as `npm start`),
 * each with the same request sequence: the knee's ratio; `off` / `on`: one of them.
 */
const READ_CACHE_MODES = ({ both: [false, true], off: [false], on: [true] } as const)[(process.env.BENCH_LOAD_READ_CACHE ?? 'both') as 'both' | 'off' | 'on'];
if (!READ_CACHE_MODES) throw new Error('BENCH_LOAD_READ_CACHE is both, off or on');

/** `api`: one API process; `worker`: one job worker; `balancer`: a `cluster` primary with BENCH_API_PROCESSES API processes on one port */
type Role = 'api' | 'worker' | 'balancer';
type ChildMessage = { type: 'ready'; apiUrl: string; pids: number[] };

/** `--child api|worker|balancer`: one part of the deployment in its own process, talking to the bench over IPC. */
async function child(role: Role) {
  if (role === 'balancer') return balancer();
  const env = process.env;
  const stack = await startApi(
    env.BENCH_DATABASE_URL!,
    env.BENCH_DIR!,
    role === 'api'
      ? { apiKeyCacheMs: 1000, directUrl: env.BENCH_DIRECT_URL!, readCache: env.BENCH_READ_CACHE === '1', ...(env.BENCH_PORT ? { port: Number(env.BENCH_PORT) } : {}) }
      : { http: false, worker: { concurrency: WORKER_CONCURRENCY } },
  );
  process.on('message', async (m: { type: string }) => {
    if (m.type === 'stop') {
      await stack.stop();
      process.exit(0);
    }
  });
  process.on('disconnect', () => void stack.stop().finally(() => process.exit(0)));
  process.send!({ type: 'ready', apiUrl: stack.apiUrl, pids: [process.pid] } satisfies ChildMessage);
}

/**
 * The load balancer of the topology run: Node's `cluster` primary forks the API processes (each
 * `--child api` on the same port) and hands them accepted connections round-robin; it serves nothing itself.
 */
async function balancer() {
  const { freePort } = await import('@hm/db/testing/global-setup');
  const port = await freePort();
  cluster.setupPrimary({ exec: fileURLToPath(import.meta.url), args: ['--child', 'api'], execArgv: process.execArgv });
  const workers = Array.from({ length: Number(process.env.BENCH_API_PROCESSES) }, () => cluster.fork({ BENCH_PORT: String(port) }));
  const urls = await Promise.all(
    workers.map(
      (w) =>
        new Promise<string>((res, rej) => {
          w.once('exit', (code) => rej(new Error(`an API process exited (${code}) before it was ready`)));
          w.on('message', (m: ChildMessage) => m.type === 'ready' && res(m.apiUrl));
        }),
    ),
  );
  const stop = async () => {
    await Promise.all(workers.map((w) => new Promise((res) => (w.isDead() ? res(null) : (w.once('exit', res), w.send({ type: 'stop' }))))));
    process.exit(0);
  };
  process.on('message', (m: { type: string }) => m.type === 'stop' && void stop());
  process.on('disconnect', () => void stop());
  process.send!({ type: 'ready', apiUrl: urls[0]!, pids: [process.pid, ...workers.map((w) => w.process.pid!)] } satisfies ChildMessage);
}

interface Child {
  apiUrl: string;
  /** the balancer first, then its API processes; one pid for the others */
  pids: number[];
  stop(): Promise<void>;
}

function startChild(role: Role, env: Record<string, string>): Promise<Child> {
  const proc: ChildProcess = fork(fileURLToPath(import.meta.url), ['--child', role], {
    execArgv: process.execArgv,
    env: { ...process.env, ...env, NODE_ENV: 'production' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`the ${role} process exited (${code}) before it was ready`));
    proc.once('exit', onExit);
    proc.on('message', (m: ChildMessage) => {
      if (m.type !== 'ready') return;
      proc.off('exit', onExit);
      resolve({
        apiUrl: m.apiUrl,
        pids: m.pids,
        stop: () =>
          new Promise<void>((res) => {
            if (proc.exitCode !== null || proc.signalCode !== null) return res();
            const kill = setTimeout(() => proc.kill('SIGKILL'), 5000);
            proc.once('exit', () => (clearTimeout(kill), res()));
            proc.send({ type: 'stop' }, (err) => err && proc.kill('SIGTERM'));
          }),
      });
    });
  });
}

interface Statement {
  calls: number;
  totalMs: number;
  meanMs: number;
  rowsPerCall: number;
  /** of all statements' execution time in the climb */
  share: number;
  query: string;
}

/** The statements that took most of Postgres's execution time since the last reset (pg_stat_statements). */
async function topStatements(conn: { execute(sql: string): Promise<unknown> }, limit = 12): Promise<Statement[]> {
  const rows = (await conn.execute(
    `select calls, total_exec_time as total, rows, left(regexp_replace(query, '\\s+', ' ', 'g'), 220) as query, sum(total_exec_time) over () as total_all
       from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database())
      order by total_exec_time desc`,
  )) as { calls: string; total: number; rows: string; query: string; total_all: number }[];
  return rows.slice(0, limit).map((r) => ({ calls: Number(r.calls), totalMs: r.total, meanMs: r.total / Number(r.calls), rowsPerCall: Number(r.rows) / Number(r.calls), share: r.total / (r.total_all || 1), query: r.query }));
}

interface Step {
  connections: number;
  seconds: number;
  requests: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** requests sent per kind (the mix as it came out of the generator) */
  byKind: Record<Kind, number>;
  /** CPUs busy per process kind (API: all API processes together; balancer and pgbouncer 0 when not in the deployment) */
  cpu: { api: number; worker: number; postgres: number; pgbouncer: number; balancer: number; loadGenerator: number; other: number };
  /** CPU milliseconds per request: what a request costs each process, whatever else the machine runs */
  cpuMsPerRequest: { api: number; worker: number; postgres: number };
}

interface Deployment {
  name: 'one-process' | 'topology';
  apiProcesses: number;
  workers: number;
  /** PgBouncer in transaction mode between the API processes and Postgres */
  pgbouncer: boolean;
}

const describeDeployment = (d: Deployment) =>
  `${d.apiProcesses} API process${d.apiProcesses > 1 ? `es behind Node's cluster (round-robin)` : ''}, ${d.workers} worker${d.workers > 1 ? 's' : ''}, ${d.pgbouncer ? `PgBouncer (transaction mode, ${PGBOUNCER_POOL} server connections) in front of Postgres` : 'Postgres directly'}`;

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

    /**
     * One deployment started with the read cache off or on, stepped up to its knee; `retirePrevious`
     * stops the previous climb's processes only once these are ready, so this API gets another port
     * (no kept-alive socket of the load generator reaches a stopped server). Returns how to stop it.
     */
    const measure = async (d: Deployment, readCache: boolean, retirePrevious: () => Promise<void>) => {
      const children: Child[] = [];
      let bouncer: PgBouncer | undefined;
      const stop = async () => {
        for (const c of children) await c.stop().catch(() => {});
        await bouncer?.stop().catch(() => {});
      };
      try {
        console.error(`bench:load ${d.name}, read cache ${readCache ? 'on' : 'off'}: ${describeDeployment(d)}…`);
        if (d.pgbouncer) bouncer = await startPgBouncer(stack.db.url, { poolSize: PGBOUNCER_POOL, maxClientConn: 200 });
        const common = { BENCH_DIRECT_URL: stack.db.url, BENCH_DIR: stack.dir, BENCH_READ_CACHE: readCache ? '1' : '0' };
        const apiEnv = { ...common, BENCH_DATABASE_URL: bouncer?.url ?? stack.db.url, BENCH_API_PROCESSES: String(d.apiProcesses) };
        const [api, ...workers] = await Promise.all([
          startChild(d.apiProcesses > 1 ? 'balancer' : 'api', apiEnv),
          ...Array.from({ length: d.workers }, () => startChild('worker', { ...common, BENCH_DATABASE_URL: stack.db.url })),
        ]);
        children.push(api!, ...workers);
        const [balancerPid, apiPids] = d.apiProcesses > 1 ? [api!.pids[0], api!.pids.slice(1)] : [undefined, api!.pids];
        const sum = (pids: number[]) => pids.reduce((t, pid) => t + processCpuSeconds(pid), 0);
        const cpuNow = () => ({
          api: sum(apiPids),
          worker: sum(workers.flatMap((w) => w.pids)),
          postgres: postgresCpuSeconds(postmasterPid),
          pgbouncer: bouncer ? processCpuSeconds(bouncer.pid) : 0,
          balancer: balancerPid ? processCpuSeconds(balancerPid) : 0,
          machine: machineCpuSeconds().busy,
        });

        await retirePrevious();
        const next = storefrontMix({ keys, seed, ids, users }); // seeded again: every climb sends the same sequence
        await stack.orm.em.getConnection().execute('select pg_stat_statements_reset()');
        await checkMix(api!.apiUrl, next, 200, `${d.name}, read cache ${readCache ? 'on' : 'off'}`);
        const run = (connections: number, seconds: number, onSent?: (kind: Kind) => void, onResponse?: (ms: number) => void) => runMix(api!.apiUrl, next, connections, seconds, onSent, onResponse);

        const steps: Step[] = [];
        for (const connections of STEPS) {
          await run(connections, 1); // settle: connections opened, pools warm at this concurrency
          const latencies: number[] = [];
          const byKind: Record<Kind, number> = { search: 0, listing: 0, favorite: 0, 'sign-in': 0 };
          const [c0, own0] = [cpuNow(), process.cpuUsage()];
          const r = await run(connections, STEP_S, (kind) => byKind[kind]++, (ms) => latencies.push(ms));
          const own = process.cpuUsage(own0);
          const c1 = cpuNow();
          latencies.sort((a, b) => a - b);
          const seconds = r.duration;
          const per = (k: 'api' | 'worker' | 'postgres' | 'pgbouncer' | 'balancer') => (c1[k] - c0[k]) / seconds;
          const cpu = { api: per('api'), worker: per('worker'), postgres: per('postgres'), pgbouncer: per('pgbouncer'), balancer: per('balancer'), loadGenerator: (own.user + own.system) / 1e6 / seconds, other: 0 };
          cpu.other = Math.max(0, (c1.machine - c0.machine) / seconds - cpu.api - cpu.worker - cpu.postgres - cpu.pgbouncer - cpu.balancer - cpu.loadGenerator);
          const rps = r.requests.total / seconds;
          const step: Step = {
            connections,
            seconds,
            requests: r.requests.total,
            rps,
            p50: percentileOfSorted(latencies, 0.5),
            p95: percentileOfSorted(latencies, 0.95),
            p99: percentileOfSorted(latencies, 0.99),
            non2xx: r.non2xx,
            errors: r.errors,
            timeouts: r.timeouts,
            byKind,
            cpu,
            cpuMsPerRequest: { api: (1000 * cpu.api) / rps, worker: (1000 * cpu.worker) / rps, postgres: (1000 * cpu.postgres) / rps },
          };
          steps.push(step);
          console.error(
            `  ${String(connections).padStart(3)} connections: ${f(step.rps).padStart(5)} req/s, p50 ${f(step.p50, 1)} ms, p95 ${f(step.p95, 1)} ms; CPU api ${f(cpu.api, 2)}, worker ${f(cpu.worker, 2)}, postgres ${f(cpu.postgres, 2)}${d.pgbouncer ? `, pgbouncer ${f(cpu.pgbouncer, 2)}` : ''}${balancerPid ? `, balancer ${f(cpu.balancer, 2)}` : ''}, load generator ${f(cpu.loadGenerator, 2)}, other ${f(cpu.other, 2)}`,
          );
          if (step.non2xx || step.errors || step.timeouts || step.p95 > P95_LIMIT_MS) break;
        }
        const within = steps.filter((s) => s.p95 <= P95_LIMIT_MS && !s.non2xx && !s.errors && !s.timeouts);
        // the most requests/s served at p95 within the limit (a step with more connections may serve fewer: contention)
        const knee = within.reduce<(typeof within)[number] | undefined>((best, s) => (!best || s.rps > best.rps ? s : best), undefined);
        const past = steps.find((s) => !within.includes(s));
        const busiest = knee ? (Object.entries({ api: knee.cpu.api, worker: knee.cpu.worker, postgres: knee.cpu.postgres }) as [string, number][]).sort((a, b) => b[1] - a[1])[0]! : undefined;
        return {
          result: {
            deployment: d,
            readCache,
            steps,
            knee: knee ? { connections: knee.connections, rps: knee.rps, p95: knee.p95, cpu: knee.cpu, cpuMsPerRequest: knee.cpuMsPerRequest } : null,
            firstPastLimit: past ? { connections: past.connections, rps: past.rps, p95: past.p95, non2xx: past.non2xx, errors: past.errors, timeouts: past.timeouts } : null,
            busiestAtKnee: busiest?.[0] ?? null,
            /** at the knee: req/s ÷ API processes, and req/s ÷ the Postgres CPUs busy there */
            perApiProcessAtKnee: knee ? knee.rps / d.apiProcesses : null,
            perPostgresCpuAtKnee: knee ? knee.rps / knee.cpu.postgres : null,
            /** req/s each process could serve with one whole core of its own, from its CPU per request at the knee (an upper bound: latency and the others' CPU not counted) */
            perCoreAtKnee: knee ? { api: 1000 / knee.cpuMsPerRequest.api, postgres: 1000 / knee.cpuMsPerRequest.postgres } : null,
            /** CPUs busy with other processes on the machine during the steps (0 on a quiet machine) */
            otherCpusMean: steps.reduce((t, x) => t + x.cpu.other, 0) / Math.max(1, steps.length),
            /** Postgres's largest statements over this climb (pg_stat_statements, reset before it) */
            statements: await topStatements(stack.orm.em.getConnection()),
          },
          stop,
        };
      } catch (e) {
        await stop();
        throw e;
      }
    };

    const deployments: Deployment[] = [{ name: 'one-process', apiProcesses: 1, workers: 1, pgbouncer: false }];
    let topologySkipped: string | null = null;
    if (TOPOLOGY && !PGBOUNCER) {
      topologySkipped = 'pgbouncer is not installed (Debian/Ubuntu: `sudo apt-get install pgbouncer`): the topology run was skipped';
      console.error(`bench:load ${topologySkipped}`);
    } else if (TOPOLOGY) deployments.push({ name: 'topology', apiProcesses: API_PROCESSES, workers: WORKERS, pgbouncer: true });

    type Climb = Awaited<ReturnType<typeof measure>>['result'];
    const runs: Climb[] = [];
    let stopPrevious = async () => {};
    try {
      for (const d of deployments)
        for (const readCache of READ_CACHE_MODES) {
          const climb = await measure(d, readCache, stopPrevious);
          runs.push(climb.result);
          stopPrevious = climb.stop;
        }
    } finally {
      await stopPrevious();
    }

    const find = (name: Deployment['name'], readCache: boolean) => runs.find((r) => r.deployment.name === name && r.readCache === readCache);
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
    const m = report.machine;
    const cacheLabel = (rc: boolean) => (rc ? 'read cache on (public reads kept per process, as `npm start`)' : 'read cache off (every read computed, as before the read cache)');
    const section = (r: Climb) => [
      `## ${r.deployment.name === 'one-process' ? 'One process' : 'Topology'}, ${cacheLabel(r.readCache)}: ${describeDeployment(r.deployment)}`,
      '',
      ...(r.deployment.pgbouncer ? ["The workers and the API processes' key-change listeners connect to Postgres directly (LISTEN); the API processes' pools go through PgBouncer.", ''] : []),
      `| connections | req/s | p50 ms | p95 ms | p99 ms | failed | CPU API | CPU worker | CPU Postgres |${r.deployment.pgbouncer ? ' CPU PgBouncer |' : ''}${r.deployment.apiProcesses > 1 ? ' CPU balancer |' : ''} CPU load generator | CPU other processes | API CPU ms/req | Postgres CPU ms/req |`,
      `|--:|--:|--:|--:|--:|--:|--:|--:|--:|${r.deployment.pgbouncer ? '--:|' : ''}${r.deployment.apiProcesses > 1 ? '--:|' : ''}--:|--:|--:|--:|`,
      ...r.steps.map(
        (s) =>
          `| ${s.connections} | ${f(s.rps)} | ${f(s.p50, 1)} | ${f(s.p95, 1)} | ${f(s.p99, 1)} | ${s.non2xx + s.errors + s.timeouts} | ${f(s.cpu.api, 2)} | ${f(s.cpu.worker, 2)} | ${f(s.cpu.postgres, 2)} |${r.deployment.pgbouncer ? ` ${f(s.cpu.pgbouncer, 2)} |` : ''}${r.deployment.apiProcesses > 1 ? ` ${f(s.cpu.balancer, 2)} |` : ''} ${f(s.cpu.loadGenerator, 2)} | ${f(s.cpu.other, 2)} | ${f(s.cpuMsPerRequest.api, 2)} | ${f(s.cpuMsPerRequest.postgres, 2)} |`,
      ),
      '',
      r.knee
        ? `**Knee: ${f(r.knee.rps)} requests/s at ${r.knee.connections} connections** (p95 ${f(r.knee.p95, 1)} ms)${r.firstPastLimit ? `; at ${r.firstPastLimit.connections} connections p95 was ${f(r.firstPastLimit.p95, 1)} ms` : `; p95 stayed within ${P95_LIMIT_MS} ms up to the last step`}. Busiest there: ${r.busiestAtKnee} (${f(r.knee.cpu[r.busiestAtKnee as 'api'], 2)} CPUs of ${m.cpus}).`
        : `No step kept p95 within ${P95_LIMIT_MS} ms.`,
      '',
      ...(r.knee && r.perCoreAtKnee
        ? [
            `CPU per request at the knee: API ${f(r.knee.cpuMsPerRequest.api, 2)} ms, Postgres ${f(r.knee.cpuMsPerRequest.postgres, 2)} ms, worker ${f(r.knee.cpuMsPerRequest.worker, 2)} ms. With one whole core each (and nothing else running), that is at most ~${f(r.perCoreAtKnee.api)} req/s for one API process (Node runs a request's JavaScript on one core) and ~${f(r.perCoreAtKnee.postgres)} req/s per Postgres core for this mix.`,
            '',
          ]
        : []),
      ...(r.otherCpusMean > 0.3
        ? [`> Warning: other processes kept ${f(r.otherCpusMean, 2)} of ${m.cpus} CPUs busy on average during the steps: the knee is this machine's share, not its capacity; the CPU per request is the steadier figure.`, '']
        : []),
      `Statements by Postgres execution time over this climb (\`pg_stat_statements\`, the ${r.statements.length} largest; share of all statements' time):`,
      '',
      '| share | calls | total ms | mean ms | rows/call | statement |',
      '|--:|--:|--:|--:|--:|---|',
      ...r.statements.map((x) => `| ${f(100 * x.share, 1)} % | ${f(x.calls)} | ${f(x.totalMs)} | ${f(x.meanMs, 3)} | ${f(x.rowsPerCall, 1)} | \`${x.query.replaceAll('|', '\\|')}\` |`),
      '',
    ];
    const cacheRatios = deployments.flatMap((d) => {
      const [off, on] = [find(d.name, false), find(d.name, true)];
      const k = report.kneeRatioReadCache[d.name];
      return k != null ? [`**${d.name}: knee with the read cache ÷ without: ${f(k, 2)}** (${f(on!.knee!.rps)} vs ${f(off!.knee!.rps)} req/s).`, ''] : [];
    });
    const topologyRows = TOPOLOGY && !topologySkipped
      ? [
          '## Topology against one process (this run)',
          '',
          '| deployment | read cache | knee req/s | req/s per API process | req/s per Postgres CPU | API CPUs | Postgres CPUs | PgBouncer CPUs | balancer CPUs |',
          '|---|---|--:|--:|--:|--:|--:|--:|--:|',
          ...runs.map((r) =>
            r.knee
              ? `| ${r.deployment.name} | ${r.readCache ? 'on' : 'off'} | ${f(r.knee.rps)} | ${f(r.perApiProcessAtKnee!)} | ${f(r.perPostgresCpuAtKnee!)} | ${f(r.knee.cpu.api, 2)} | ${f(r.knee.cpu.postgres, 2)} | ${f(r.knee.cpu.pgbouncer, 2)} | ${f(r.knee.cpu.balancer, 2)} |`
              : `| ${r.deployment.name} | ${r.readCache ? 'on' : 'off'} | no knee | | | | | | |`,
          ),
          '',
          ...Object.entries(report.topologyRatios ?? {}).flatMap(([mode, t]) =>
            t ? [`Topology ÷ one process (${mode}): knee ${f(t.knee ?? NaN, 2)}×, req/s per API process ${f(t.perApiProcess ?? NaN, 2)}×, req/s per Postgres CPU ${f(t.perPostgresCpu ?? NaN, 2)}×.`, ''] : [],
          ),
        ]
      : topologySkipped
        ? [`Topology: skipped — ${topologySkipped}.`, '']
        : [];
    const md = [
      `# load — ${report.date}`,
      '',
      `A storefront-like mix (\`bench/storefront-mix.ts\`) at rising concurrency until p95 passes ${P95_LIMIT_MS} ms: 70 % listing search (varied words, prefixes, categories, terms, price ranges, sorts; publishable key), 20 % listing pages, 8 % favourites (save, forget, the saved list; secret key + session), 2 % password sign-ins. ${f(LISTINGS)} listings on sale, ${MIX_USERS} users. Each step: 1 s unmeasured, then ${STEP_S} s measured. CPU in CPUs (1.00 = one core busy the whole step). Each climb below ran in this one run, with the same request sequence, one after the other.`,
      '',
      `Machine: ${m.cpus} CPU (${m.cpuModel}), ${m.memoryGiB} GiB, ${m.platform}, Node ${m.node}, load average at start ${m.loadAverageAtStart.join(' / ')}${m.commit ? `, commit ${m.commit}` : ''}. The load generator, the API, the worker and Postgres share these CPUs.`,
      '',
      ...cacheRatios,
      ...runs.flatMap(section),
      ...topologyRows,
    ].join('\n');
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
