/**
 * One climb of bench:load: a deployment started with the read cache off or on, stepped up through
 * the concurrency steps to its knee (p95 within the limit), its CPU per process, and Postgres's
 * largest statements over the climb.
 */
import { f, machineCpuSeconds, percentileOfSorted, postgresCpuSeconds, processCpuSeconds, type startApiStack } from './lib.js';
import { startPgBouncer, type PgBouncer } from '@hm/db/testing/pgbouncer';
import { checkMix, runMix, storefrontMix, type Kind, type MixUser } from './storefront-mix.js';
import { describeDeployment, P95_LIMIT_MS, PGBOUNCER_POOL, STEP_S, STEPS, type Deployment } from './load.settings.js';
import { startChild, type Child } from './load.processes.js';

/** What every climb of a run shares: the stack (Postgres), the marketplace's keys and data, the mix's users. */
export interface ClimbRun {
  stack: Awaited<ReturnType<typeof startApiStack>>;
  keys: { secret: string; publishable: string };
  seed: Parameters<typeof storefrontMix>[0]['seed'];
  ids: string[];
  users: MixUser[];
  postmasterPid: number;
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

export interface Step {
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

/**
 * One deployment started with the read cache off or on, stepped up to its knee; `retirePrevious`
 * stops the previous climb's processes only once these are ready, so this API gets another port
 * (no kept-alive socket of the load generator reaches a stopped server). Returns how to stop it.
 */
export async function climb(shared: ClimbRun, d: Deployment, readCache: boolean, retirePrevious: () => Promise<void>) {
  const { stack, keys, seed, ids, users, postmasterPid } = shared;
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
}

export type Climb = Awaited<ReturnType<typeof climb>>['result'];
