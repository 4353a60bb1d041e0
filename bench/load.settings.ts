/**
 * bench:load's settings (environment variables, see load.ts) and the deployments it climbs.
 */
export const LISTINGS = Number(process.env.BENCH_LOAD_LISTINGS ?? 20_000);
export const STEP_S = Number(process.env.BENCH_LOAD_STEP_S ?? 8);
export const STEPS = (process.env.BENCH_LOAD_STEPS ?? '1,2,4,8,16,32,64,128').split(',').map(Number);
/** the knee's p95 limit (200 ms); a run on a machine busy with other work may raise it to compare deployments at all (say so beside its numbers) */
export const P95_LIMIT_MS = Number(process.env.BENCH_LOAD_P95_MS ?? 200);
export const WORKER_CONCURRENCY = 4;
export const TOPOLOGY = process.env.BENCH_LOAD_TOPOLOGY === '1' || process.argv.includes('--topology');
export const API_PROCESSES = Number(process.env.BENCH_LOAD_API_PROCESSES ?? 2);
export const WORKERS = Number(process.env.BENCH_LOAD_WORKERS ?? 2);
export const PGBOUNCER_POOL = Number(process.env.BENCH_LOAD_PGBOUNCER_POOL ?? 8);
/**
 * `both` (default): each deployment's climb twice in one run, the API computing every read
 * (API_READ_CACHE=false, as before the read cache) and then keeping public reads (as `npm start`),
 * each with the same request sequence: the knee's ratio; `off` / `on`: one of them.
 */
export const READ_CACHE_MODES = ({ both: [false, true], off: [false], on: [true] } as const)[(process.env.BENCH_LOAD_READ_CACHE ?? 'both') as 'both' | 'off' | 'on'];
if (!READ_CACHE_MODES) throw new Error('BENCH_LOAD_READ_CACHE is both, off or on');

export interface Deployment {
  name: 'one-process' | 'topology';
  apiProcesses: number;
  workers: number;
  /** PgBouncer in transaction mode between the API processes and Postgres */
  pgbouncer: boolean;
}

export const describeDeployment = (d: Deployment) =>
  `${d.apiProcesses} API process${d.apiProcesses > 1 ? `es behind Node's cluster (round-robin)` : ''}, ${d.workers} worker${d.workers > 1 ? 's' : ''}, ${d.pgbouncer ? `PgBouncer (transaction mode, ${PGBOUNCER_POOL} server connections) in front of Postgres` : 'Postgres directly'}`;
