/**
 * Benchmark: a storefront-like mix at rising concurrency until p95 passes 200 ms — where one API
 * process, one worker process and one Postgres on this machine reach their knee, and which of them
 * is busiest there (what to scale first).
 *
 *   mix          storefront-mix.ts (70 % listing search, 20 % listing pages, 10 % favourites and
 *                sign-ins; seeded), the same mix bench:events measures with and without deliveries.
 *   processes    the API (`startApi`, no worker, API key cache 1 s as `npm start`) and the job worker
 *                (`startApi` with `http: false`, as `npm run worker`) each in its own process, Postgres
 *                embedded; autocannon in this process. CPU of each from /proc and process.cpuUsage.
 *   steps        concurrency 1, 2, 4, 8, 16, 32, 64, 128 connections: 1 s unmeasured, then
 *                BENCH_LOAD_STEP_S (8) measured; stops after the first step whose p95 is over 200 ms
 *                (or that fails requests). The knee: the last step within 200 ms, and its req/s.
 *
 * Bounded: ~2 minutes on 2 cores (seeding BENCH_LOAD_LISTINGS, default 20 000, takes a few seconds);
 * gives up after 240 s. Run: npm run -s bench:load
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { f, machine, machineCpuSeconds, percentileOfSorted, postgresCpuSeconds, startApi, startApiStack, writeResults } from './lib.js';
import { seedBench } from './seed.js';
import { MIX, MIX_USERS as USERS, checkMix, mixUsers, runMix, storefrontMix, type Kind } from './storefront-mix.js';

const LISTINGS = Number(process.env.BENCH_LOAD_LISTINGS ?? 20_000);
const STEP_S = Number(process.env.BENCH_LOAD_STEP_S ?? 8);
const STEPS = (process.env.BENCH_LOAD_STEPS ?? '1,2,4,8,16,32,64,128').split(',').map(Number);
const P95_LIMIT_MS = 200;
const WORKER_CONCURRENCY = 4;

type Role = 'api' | 'worker';
type ChildMessage = { type: 'ready'; apiUrl: string } | { type: 'cpu'; id: number; user: number; system: number };

/** `--child api|worker`: one part of the deployment in its own process, talking to the bench over IPC. */
async function child(role: Role) {
  const stack = await startApi(process.env.BENCH_DATABASE_URL!, process.env.BENCH_DIR!, role === 'api' ? { apiKeyCacheMs: 1000 } : { http: false, worker: { concurrency: WORKER_CONCURRENCY } });
  process.on('message', async (m: { type: string; id?: number }) => {
    if (m.type === 'cpu') {
      const u = process.cpuUsage();
      process.send!({ type: 'cpu', id: m.id!, user: u.user, system: u.system } satisfies ChildMessage);
    } else if (m.type === 'stop') {
      await stack.stop();
      process.exit(0);
    }
  });
  process.on('disconnect', () => void stack.stop().finally(() => process.exit(0)));
  process.send!({ type: 'ready', apiUrl: stack.apiUrl } satisfies ChildMessage);
}

interface Child {
  apiUrl: string;
  cpuSeconds(): Promise<number>;
  stop(): Promise<void>;
}

function startChild(role: Role, databaseUrl: string, dir: string): Promise<Child> {
  const proc: ChildProcess = fork(fileURLToPath(import.meta.url), ['--child', role], {
    execArgv: process.execArgv,
    env: { ...process.env, BENCH_DATABASE_URL: databaseUrl, BENCH_DIR: dir, NODE_ENV: 'production' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let nextId = 0;
  const pending = new Map<number, (seconds: number) => void>();
  proc.on('message', (m: ChildMessage) => {
    if (m.type !== 'cpu') return;
    pending.get(m.id)?.((m.user + m.system) / 1e6);
    pending.delete(m.id);
  });
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`the ${role} process exited (${code}) before it was ready`));
    proc.once('exit', onExit);
    proc.on('message', (m: ChildMessage) => {
      if (m.type !== 'ready') return;
      proc.off('exit', onExit);
      resolve({
        apiUrl: m.apiUrl,
        cpuSeconds: () =>
          new Promise((res) => {
            const id = nextId++;
            pending.set(id, res);
            proc.send({ type: 'cpu', id });
          }),
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
  cpu: { api: number; worker: number; postgres: number; loadGenerator: number; other: number };
  /** CPU milliseconds per request: what a request costs each process, whatever else the machine runs */
  cpuMsPerRequest: { api: number; worker: number; postgres: number };
}

async function main() {
  const started = new Date();
  const machineInfo = machine();
  const giveUp = setTimeout(() => {
    console.error('bench:load took over 240 s; giving up');
    process.exit(1);
  }, 240_000);
  const stack = await startApiStack('load');
  const children: Child[] = [];
  try {
    const { keys } = await stack.operator.marketplace.create({ name: 'Bench', slug: 'bench', currencies: ['SEK', 'EUR', 'USD'], locales: ['en', 'sv'], storefront_url: 'http://127.0.0.1:3000' });
    console.error(`bench:load seeding ${LISTINGS.toLocaleString('en-US')} listings…`);
    const seed = await seedBench(stack.db.url, { listings: LISTINGS, marketplace: 'bench', quiet: true });
    await stack.orm.em.getConnection().execute('vacuum analyze');
    const ids = (await stack.orm.em.getConnection().execute<{ id: string }[]>('select id from listings where marketplace_id = ? and on_sale order by random() limit 2000', [seed.marketplaceId])).map((r) => r.id);

    console.error(`bench:load ${USERS} users with passwords…`);
    const users = await mixUsers(stack.apiUrl, keys.secret);

    console.error('bench:load starting the API and the worker, each in its own process…');
    const [api, worker] = await Promise.all([startChild('api', stack.db.url, stack.dir), startChild('worker', stack.db.url, stack.dir)]);
    children.push(api, worker);
    const postmasterPid = Number(readFileSync(path.join(stack.dir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);

    // The mix, picked per request from a seeded generator; every shape answers 2xx before any load.
    const next = storefrontMix({ keys, seed, ids, users });
    await checkMix(api.apiUrl, next);
    const run = (connections: number, seconds: number, onSent?: (kind: Kind) => void, onResponse?: (ms: number) => void) => runMix(api.apiUrl, next, connections, seconds, onSent, onResponse);

    const steps: Step[] = [];
    for (const connections of STEPS) {
      await run(connections, 1); // settle: connections opened, pools warm at this concurrency
      const latencies: number[] = [];
      const byKind: Record<Kind, number> = { search: 0, listing: 0, favorite: 0, 'sign-in': 0 };
      const [api0, worker0, pg0, machine0, own0] = [await api.cpuSeconds(), await worker.cpuSeconds(), postgresCpuSeconds(postmasterPid), machineCpuSeconds(), process.cpuUsage()];
      const r = await run(connections, STEP_S, (kind) => byKind[kind]++, (ms) => latencies.push(ms));
      const own = process.cpuUsage(own0);
      const [api1, worker1, pg1, machine1] = [await api.cpuSeconds(), await worker.cpuSeconds(), postgresCpuSeconds(postmasterPid), machineCpuSeconds()];
      latencies.sort((a, b) => a - b);
      const seconds = r.duration;
      const cpu = {
        api: (api1 - api0) / seconds,
        worker: (worker1 - worker0) / seconds,
        postgres: (pg1 - pg0) / seconds,
        loadGenerator: (own.user + own.system) / 1e6 / seconds,
        other: 0,
      };
      cpu.other = Math.max(0, (machine1.busy - machine0.busy) / seconds - cpu.api - cpu.worker - cpu.postgres - cpu.loadGenerator);
      const step: Step = {
        connections,
        seconds,
        requests: r.requests.total,
        rps: r.requests.total / seconds,
        p50: percentileOfSorted(latencies, 0.5),
        p95: percentileOfSorted(latencies, 0.95),
        p99: percentileOfSorted(latencies, 0.99),
        non2xx: r.non2xx,
        errors: r.errors,
        timeouts: r.timeouts,
        byKind,
        cpu,
        cpuMsPerRequest: { api: 0, worker: 0, postgres: 0 },
      };
      step.cpuMsPerRequest = { api: (1000 * cpu.api) / step.rps, worker: (1000 * cpu.worker) / step.rps, postgres: (1000 * cpu.postgres) / step.rps };
      steps.push(step);
      console.error(
        `  ${String(connections).padStart(3)} connections: ${f(step.rps).padStart(5)} req/s, p50 ${f(step.p50, 1)} ms, p95 ${f(step.p95, 1)} ms; CPU api ${f(cpu.api, 2)}, worker ${f(cpu.worker, 2)}, postgres ${f(cpu.postgres, 2)}, load generator ${f(cpu.loadGenerator, 2)}, other ${f(cpu.other, 2)}`,
      );
      if (step.non2xx || step.errors || step.timeouts || step.p95 > P95_LIMIT_MS) break;
    }

    const within = steps.filter((s) => s.p95 <= P95_LIMIT_MS && !s.non2xx && !s.errors && !s.timeouts);
    const knee = within.at(-1);
    const past = steps.find((s) => !within.includes(s));
    const busiest = knee ? (Object.entries({ api: knee.cpu.api, worker: knee.cpu.worker, postgres: knee.cpu.postgres }) as [string, number][]).sort((a, b) => b[1] - a[1])[0]! : undefined;
    const report = {
      date: started.toISOString(),
      machine: machineInfo,
      settings: { listings: LISTINGS, stepSeconds: STEP_S, steps: STEPS, p95LimitMs: P95_LIMIT_MS, users: USERS, workerConcurrency: WORKER_CONCURRENCY },
      mix: MIX,
      steps,
      knee: knee ? { connections: knee.connections, rps: knee.rps, p95: knee.p95, cpu: knee.cpu } : null,
      firstPastLimit: past ? { connections: past.connections, rps: past.rps, p95: past.p95, non2xx: past.non2xx, errors: past.errors, timeouts: past.timeouts } : null,
      busiestAtKnee: busiest?.[0] ?? null,
      /** req/s each process could serve with one whole core of its own, from its CPU per request at the knee (an upper bound: latency and the others' CPU not counted) */
      perCoreAtKnee: knee ? { api: 1000 / knee.cpuMsPerRequest.api, postgres: 1000 / knee.cpuMsPerRequest.postgres } : null,
      /** CPUs busy with other processes on the machine during the steps (0 on a quiet machine) */
      otherCpusMean: steps.reduce((sum, x) => sum + x.cpu.other, 0) / Math.max(1, steps.length),
    };
    const m = report.machine;
    const md = [
      `# load — ${report.date}`,
      '',
      `A storefront-like mix against one API process, one worker process and one Postgres on loopback, at rising concurrency until p95 passes ${P95_LIMIT_MS} ms: 70 % listing search (varied words, prefixes, categories, terms, price ranges, sorts; publishable key), 20 % listing pages, 8 % favourites (save, forget, the saved list; secret key + session), 2 % password sign-ins. ${f(LISTINGS)} listings on sale, ${USERS} users. Each step: 1 s unmeasured, then ${STEP_S} s measured. CPU in CPUs (1.00 = one core busy the whole step).`,
      '',
      `Machine: ${m.cpus} CPU (${m.cpuModel}), ${m.memoryGiB} GiB, ${m.platform}, Node ${m.node}, load average at start ${m.loadAverageAtStart.join(' / ')}${m.commit ? `, commit ${m.commit}` : ''}. The load generator, the API, the worker and Postgres share these CPUs.`,
      '',
      '| connections | req/s | p50 ms | p95 ms | p99 ms | failed | CPU API | CPU worker | CPU Postgres | CPU load generator | CPU other processes | API CPU ms/req | Postgres CPU ms/req |',
      '|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
      ...steps.map(
        (s) =>
          `| ${s.connections} | ${f(s.rps)} | ${f(s.p50, 1)} | ${f(s.p95, 1)} | ${f(s.p99, 1)} | ${s.non2xx + s.errors + s.timeouts} | ${f(s.cpu.api, 2)} | ${f(s.cpu.worker, 2)} | ${f(s.cpu.postgres, 2)} | ${f(s.cpu.loadGenerator, 2)} | ${f(s.cpu.other, 2)} | ${f(s.cpuMsPerRequest.api, 2)} | ${f(s.cpuMsPerRequest.postgres, 2)} |`,
      ),
      '',
      knee
        ? `**Knee: ${f(knee.rps)} requests/s at ${knee.connections} connections** (p95 ${f(knee.p95, 1)} ms)${past ? `; at ${past.connections} connections p95 was ${f(past.p95, 1)} ms` : `; p95 stayed within ${P95_LIMIT_MS} ms up to the last step`}. Busiest there: ${busiest![0]} (${f(busiest![1], 2)} CPUs of ${m.cpus}).`
        : `No step kept p95 within ${P95_LIMIT_MS} ms.`,
      '',
      ...(report.perCoreAtKnee
        ? [
            `CPU per request at the knee: API ${f(knee!.cpuMsPerRequest.api, 2)} ms, Postgres ${f(knee!.cpuMsPerRequest.postgres, 2)} ms, worker ${f(knee!.cpuMsPerRequest.worker, 2)} ms. With one whole core each (and nothing else running), that is at most ~${f(report.perCoreAtKnee.api)} req/s for one API process (Node runs a request's JavaScript on one core) and ~${f(report.perCoreAtKnee.postgres)} req/s per Postgres core for this mix.`,
            '',
          ]
        : []),
      ...(report.otherCpusMean > 0.3
        ? [`> Warning: other processes kept ${f(report.otherCpusMean, 2)} of ${m.cpus} CPUs busy on average during the steps: the knee is this machine's share, not its capacity; the CPU per request is the steadier figure.`, '']
        : []),
    ].join('\n');
    writeResults('load', report.date, report, md);
    process.stdout.write(md);
  } finally {
    for (const c of children) await c.stop().catch(() => {});
    await stack.stop();
    clearTimeout(giveUp);
  }
}

const at = process.argv.indexOf('--child');
if (at >= 0) await child(process.argv[at + 1] as Role);
else await main();
