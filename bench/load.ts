/**
 * Benchmark: a storefront-like mix at rising concurrency until p95 passes 200 ms — where one API
 * process, one worker process and one Postgres on this machine reach their knee, and which of them
 * is busiest there (what to scale first).
 *
 *   mix          70 % listing search (`GET /v1/listings` with varied words, prefixes, categories, terms,
 *                price ranges and sorts), 20 % listing pages (`GET /v1/listings/{id}`), 10 %
 *                favourites and sign-ins (save / forget a listing, the saved list, `POST /v1/sessions`
 *                with a password); reads with the publishable key, the rest with the secret key and a
 *                user's session, as a storefront's server sends them. Every request is picked at random
 *                from the mix as it is sent (seeded, so runs send the same sequence).
 *   processes    the API (`startApi`, no worker, API key cache 1 s as `npm start`) and the job worker
 *                (`startApi` with `http: false`, as `npm run worker`) each in its own process, Postgres
 *                embedded; autocannon in this process. CPU of each from /proc and process.cpuUsage.
 *   steps        concurrency 1, 2, 4, 8, 16, 32, 64, 128 connections: 1 s unmeasured, then
 *                BENCH_LOAD_STEP_S (8) measured; stops after the first step whose p95 is over 200 ms
 *                (or that fails requests). The knee: the last step within 200 ms, and its req/s.
 *
 * Bounded: ~2 minutes per climb on 2 cores (seeding BENCH_LOAD_LISTINGS, default 20 000, takes a few seconds);
 * gives up after 240 s per climb. Run: npm run -s bench:load
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { f, machine, machineCpuSeconds, percentileOfSorted, postgresCpuSeconds, startApi, startApiStack, writeResults } from './lib.js';
import { RARE_WORD, VOCABULARY, seedBench } from './seed.js';

const LISTINGS = Number(process.env.BENCH_LOAD_LISTINGS ?? 20_000);
const STEP_S = Number(process.env.BENCH_LOAD_STEP_S ?? 8);
const STEPS = (process.env.BENCH_LOAD_STEPS ?? '1,2,4,8,16,32,64,128').split(',').map(Number);
/** the knee's p95 limit; a loaded machine may raise it (BENCH_LOAD_P95_MS) to compare the two climbs at all */
const P95_LIMIT_MS = Number(process.env.BENCH_LOAD_P95_MS ?? 200);
const USERS = 20;
const PASSWORD = 'bench-load-password';
const WORKER_CONCURRENCY = 4;
/**
 * `both` (default): the whole climb twice in one run, the API computing every read
 * (API_READ_CACHE=false, as before the read cache) and then keeping public reads (as `npm start`),
 * each with the same request sequence: the knee's ratio; `off` / `on`: one of them.
 */
const READ_CACHE_MODES = ({ both: [false, true], off: [false], on: [true] } as const)[(process.env.BENCH_LOAD_READ_CACHE ?? 'both') as 'both' | 'off' | 'on'];
if (!READ_CACHE_MODES) throw new Error('BENCH_LOAD_READ_CACHE is both, off or on');

type Role = 'api' | 'worker';
type ChildMessage = { type: 'ready'; apiUrl: string } | { type: 'cpu'; id: number; user: number; system: number };

/** `--child api|worker`: one part of the deployment in its own process, talking to the bench over IPC. */
async function child(role: Role) {
  const stack = await startApi(
    process.env.BENCH_DATABASE_URL!,
    process.env.BENCH_DIR!,
    role === 'api' ? { apiKeyCacheMs: 1000, readCache: process.env.BENCH_READ_CACHE === '1' } : { http: false, worker: { concurrency: WORKER_CONCURRENCY } },
  );
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

function startChild(role: Role, databaseUrl: string, dir: string, readCache = false): Promise<Child> {
  const proc: ChildProcess = fork(fileURLToPath(import.meta.url), ['--child', role], {
    execArgv: process.execArgv,
    env: { ...process.env, BENCH_DATABASE_URL: databaseUrl, BENCH_DIR: dir, NODE_ENV: 'production', BENCH_READ_CACHE: readCache ? '1' : '0' },
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

/** A small seeded generator (mulberry32), so every run sends the same sequence of requests. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Kind = 'search' | 'listing' | 'favorite' | 'sign-in';

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
interface Spec {
  kind: Kind;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
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
  const limitS = 240 * READ_CACHE_MODES.length;
  const giveUp = setTimeout(() => {
    console.error(`bench:load took over ${limitS} s; giving up`);
    process.exit(1);
  }, limitS * 1000);
  const stack = await startApiStack('load', { preload: ['pg_stat_statements'] });
  const children: Child[] = [];
  try {
    const { keys } = await stack.operator.marketplace.create({ name: 'Bench', slug: 'bench', currencies: ['SEK', 'EUR', 'USD'], locales: ['en', 'sv'], storefront_url: 'http://127.0.0.1:3000' });
    console.error(`bench:load seeding ${LISTINGS.toLocaleString('en-US')} listings…`);
    const seed = await seedBench(stack.db.url, { listings: LISTINGS, marketplace: 'bench', quiet: true });
    await stack.orm.em.getConnection().execute('vacuum analyze');
    await stack.orm.em.getConnection().execute('create extension if not exists pg_stat_statements');
    const ids = (await stack.orm.em.getConnection().execute<{ id: string }[]>('select id from listings where marketplace_id = ? and on_sale order by random() limit 2000', [seed.marketplaceId])).map((r) => r.id);

    console.error(`bench:load ${USERS} users with passwords…`);
    const secret = { authorization: `Bearer ${keys.secret}`, 'content-type': 'application/json' };
    const users: { email: string; session: string }[] = [];
    for (let i = 0; i < USERS; i++) {
      const email = `shopper${i}@example.com`;
      const res = await fetch(`${stack.apiUrl}/v1/users`, { method: 'POST', headers: secret, body: JSON.stringify({ email, password: PASSWORD }) });
      if (res.status !== 201) throw new Error(`sign-up answered ${res.status}: ${await res.text()}`);
      users.push({ email, session: ((await res.json()) as { session: { token: string } }).session.token });
    }

    console.error('bench:load starting the worker in its own process…');
    const worker = await startChild('worker', stack.db.url, stack.dir);
    children.push(worker);
    const postmasterPid = Number(readFileSync(path.join(stack.dir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);

    // The mix, picked per request from a seeded generator (seeded again for each climb: both send the same sequence).
    let rnd = random(16);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
    const publishable = { authorization: `Bearer ${keys.publishable}` };
    const words = [...VOCABULARY, RARE_WORD];
    const sorts = ['newest', 'price_asc', 'price_desc', 'popular'];
    const search = (): Spec => {
      const q = new URLSearchParams({ limit: '24' });
      const shape = rnd();
      if (shape < 0.35) q.set('q', pick(words));
      else if (shape < 0.45) q.set('q', `${pick(words)} ${pick(words)}`);
      else if (shape < 0.55) q.set('q', pick(words).slice(0, 2));
      else if (shape < 0.8) q.set('category', pick(seed.categories).id);
      if (rnd() < 0.2) q.append('term', pick(seed.brands));
      if (rnd() < 0.15) {
        q.set('min_price', String(1000 * Math.floor(rnd() * 100)));
        q.set('max_price', String(100_000 + 10_000 * Math.floor(rnd() * 100)));
      }
      if (!q.has('q') || rnd() < 0.3) q.set('sort', pick(sorts));
      return { kind: 'search', method: 'GET', path: `/v1/listings?${q}`, headers: publishable };
    };
    const next = (): Spec => {
      const r = rnd();
      if (r < 0.7) return search();
      if (r < 0.9) return { kind: 'listing', method: 'GET', path: `/v1/listings/${pick(ids)}`, headers: publishable };
      const user = pick(users);
      const session = { authorization: `Bearer ${keys.secret}`, 'x-user-session': user.session };
      if (r < 0.94) return { kind: 'favorite', method: 'PUT', path: `/v1/me/favorites/${pick(ids)}`, headers: session };
      if (r < 0.96) return { kind: 'favorite', method: 'DELETE', path: `/v1/me/favorites/${pick(ids)}`, headers: session };
      if (r < 0.98) return { kind: 'favorite', method: 'GET', path: '/v1/me/favorites?limit=24', headers: session };
      return { kind: 'sign-in', method: 'POST', path: '/v1/sessions', headers: secret, body: JSON.stringify({ email: user.email, password: PASSWORD }) };
    };

    const runs: { readCache: boolean; steps: Step[]; statements: Statement[] }[] = [];
    let previous: Child | undefined;
    for (const readCache of READ_CACHE_MODES) {
      console.error(`bench:load the API (read cache ${readCache ? 'on' : 'off'}) in its own process…`);
      const api = await startChild('api', stack.db.url, stack.dir, readCache);
      children.push(api);
      // the previous climb's API goes only now, so this one got another port (no kept-alive socket reaches a closed server)
      if (previous) await previous.stop();
      rnd = random(16);
    await stack.orm.em.getConnection().execute('select pg_stat_statements_reset()');
      // Every shape answers 2xx before any load: a mix that fails requests would measure errors.
      for (let i = 0; i < 200; i++) {
        const s = next();
        const res = await fetch(`${api.apiUrl}${s.path}`, { method: s.method, headers: s.headers, ...(s.body ? { body: s.body } : {}) });
        if (res.status >= 300) throw new Error(`${s.method} ${s.path} answered ${res.status}: ${await res.text()}`);
        await res.arrayBuffer();
      }

      /** autocannon over the mix; `onSent` sees each request's kind, `onResponse` each response time (ms, exact) */
      const run = (connections: number, seconds: number, onSent?: (kind: Kind) => void, onResponse?: (ms: number) => void) =>
        new Promise<autocannon.Result>((resolve, reject) => {
          const instance = autocannon(
            {
              url: api.apiUrl,
              connections,
              duration: seconds,
              timeout: 10,
              requests: [
                {
                  setupRequest: (req) => {
                    const s = next();
                    onSent?.(s.kind);
                    // keep autocannon's defaults (host, port); replace what the mix decides
                    // (a copy: autocannon writes content-length into the headers it is given, and these objects are shared)
                  return { ...req, method: s.method, path: s.path, headers: { ...s.headers }, body: s.body ?? '' };
                  },
                },
              ],
            },
            (err, result) => (err ? reject(err) : resolve(result)),
          );
          if (onResponse) instance.on('response', (_client, _status, _bytes, ms) => onResponse(ms));
        });

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
      runs.push({ readCache, steps, statements: await topStatements(stack.orm.em.getConnection()) });
      previous = api;
    }

    const summaryOf = (steps: Step[]) => {
      const within = steps.filter((s) => s.p95 <= P95_LIMIT_MS && !s.non2xx && !s.errors && !s.timeouts);
      const knee = within.at(-1);
      const past = steps.find((s) => !within.includes(s));
      const busiest = knee ? (Object.entries({ api: knee.cpu.api, worker: knee.cpu.worker, postgres: knee.cpu.postgres }) as [string, number][]).sort((a, b) => b[1] - a[1])[0]! : undefined;
      return {
        knee: knee ? { connections: knee.connections, rps: knee.rps, p95: knee.p95, cpu: knee.cpu, cpuMsPerRequest: knee.cpuMsPerRequest } : null,
        firstPastLimit: past ? { connections: past.connections, rps: past.rps, p95: past.p95, non2xx: past.non2xx, errors: past.errors, timeouts: past.timeouts } : null,
        busiestAtKnee: busiest?.[0] ?? null,
        busiestCpus: busiest?.[1] ?? null,
        /** req/s each process could serve with one whole core of its own, from its CPU per request at the knee (an upper bound: latency and the others' CPU not counted) */
        perCoreAtKnee: knee ? { api: 1000 / knee.cpuMsPerRequest.api, postgres: 1000 / knee.cpuMsPerRequest.postgres } : null,
        /** CPUs busy with other processes on the machine during the steps (0 on a quiet machine) */
        otherCpusMean: steps.reduce((sum, x) => sum + x.cpu.other, 0) / Math.max(1, steps.length),
      };
    };
    const results = runs.map((r) => ({ readCache: r.readCache, steps: r.steps, ...summaryOf(r.steps), statements: r.statements }));
    const off = results.find((r) => !r.readCache);
    const on = results.find((r) => r.readCache);
    const report = {
      date: started.toISOString(),
      machine: machineInfo,
      settings: { listings: LISTINGS, stepSeconds: STEP_S, steps: STEPS, p95LimitMs: P95_LIMIT_MS, users: USERS, workerConcurrency: WORKER_CONCURRENCY, readCacheModes: READ_CACHE_MODES },
      mix: { search: 0.7, listingPage: 0.2, favourites: 0.08, signIns: 0.02 },
      runs: results,
      /** knee req/s with the read cache ÷ without, same run, same request sequence */
      kneeRatioReadCache: off?.knee && on?.knee ? on.knee.rps / off.knee.rps : null,
    };
    const m = report.machine;
    const section = (r: (typeof results)[number]) => [
      `## API_READ_CACHE=${r.readCache}${r.readCache ? ' (public reads kept per process, as `npm start`)' : ' (every read computed, as before the read cache)'}`,
      '',
      '| connections | req/s | p50 ms | p95 ms | p99 ms | failed | CPU API | CPU worker | CPU Postgres | CPU load generator | CPU other processes | API CPU ms/req | Postgres CPU ms/req |',
      '|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
      ...r.steps.map(
        (s) =>
          `| ${s.connections} | ${f(s.rps)} | ${f(s.p50, 1)} | ${f(s.p95, 1)} | ${f(s.p99, 1)} | ${s.non2xx + s.errors + s.timeouts} | ${f(s.cpu.api, 2)} | ${f(s.cpu.worker, 2)} | ${f(s.cpu.postgres, 2)} | ${f(s.cpu.loadGenerator, 2)} | ${f(s.cpu.other, 2)} | ${f(s.cpuMsPerRequest.api, 2)} | ${f(s.cpuMsPerRequest.postgres, 2)} |`,
      ),
      '',
      r.knee
        ? `**Knee: ${f(r.knee.rps)} requests/s at ${r.knee.connections} connections** (p95 ${f(r.knee.p95, 1)} ms)${r.firstPastLimit ? `; at ${r.firstPastLimit.connections} connections p95 was ${f(r.firstPastLimit.p95, 1)} ms` : `; p95 stayed within ${P95_LIMIT_MS} ms up to the last step`}. Busiest there: ${r.busiestAtKnee} (${f(r.busiestCpus!, 2)} CPUs of ${m.cpus}).`
        : `No step kept p95 within ${P95_LIMIT_MS} ms.`,
      '',
      ...(r.perCoreAtKnee
        ? [
            `CPU per request at the knee: API ${f(r.knee!.cpuMsPerRequest.api, 2)} ms, Postgres ${f(r.knee!.cpuMsPerRequest.postgres, 2)} ms, worker ${f(r.knee!.cpuMsPerRequest.worker, 2)} ms. With one whole core each (and nothing else running), that is at most ~${f(r.perCoreAtKnee.api)} req/s for one API process (Node runs a request's JavaScript on one core) and ~${f(r.perCoreAtKnee.postgres)} req/s per Postgres core for this mix.`,
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
    const md = [
      `# load — ${report.date}`,
      '',
      `A storefront-like mix against one API process, one worker process and one Postgres on loopback, at rising concurrency until p95 passes ${P95_LIMIT_MS} ms: 70 % listing search (varied words, prefixes, categories, terms, price ranges, sorts; publishable key), 20 % listing pages, 8 % favourites (save, forget, the saved list; secret key + session), 2 % password sign-ins. ${f(LISTINGS)} listings on sale, ${USERS} users. Each step: 1 s unmeasured, then ${STEP_S} s measured. CPU in CPUs (1.00 = one core busy the whole step). Each climb below ran in this one run, with the same request sequence, one after the other.`,
      '',
      `Machine: ${m.cpus} CPU (${m.cpuModel}), ${m.memoryGiB} GiB, ${m.platform}, Node ${m.node}, load average at start ${m.loadAverageAtStart.join(' / ')}${m.commit ? `, commit ${m.commit}` : ''}. The load generator, the API, the worker and Postgres share these CPUs.`,
      '',
      ...(report.kneeRatioReadCache !== null ? [`**Knee with the read cache ÷ without: ${f(report.kneeRatioReadCache, 2)}** (${f(on!.knee!.rps)} vs ${f(off!.knee!.rps)} req/s).`, ''] : []),
      ...results.flatMap(section),
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
