/** What every benchmark report starts with, and number formatting for its tables. */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));

export function machine() {
  const cpus = os.cpus();
  let commit: string | undefined;
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: HERE, stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
  } catch {
    commit = undefined;
  }
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model ?? 'unknown',
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    node: process.version,
    loadAverageAtStart: os.loadavg().map((l) => Number(l.toFixed(2))),
    commit,
  };
}

export const f = (n: number, digits = 0) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** The value at quantile q (0..1) of numbers already sorted ascending (nearest rank). */
export function percentileOfSorted(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** The value at quantile q (0..1) of unsorted numbers. */
export const percentile = (xs: number[], q: number) => percentileOfSorted([...xs].sort((a, b) => a - b), q);

/**
 * CPU seconds used so far by the postmaster and all its children (backends, background workers),
 * including children that have exited (the postmaster's cutime/cstime: pools close idle connections).
 */
export function postgresCpuSeconds(postmasterPid: number): number {
  const tick = 100; // USER_HZ on Linux
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // fields from #3 (state) on
    const ppid = Number(fields[1]);
    if (Number(entry) !== postmasterPid && ppid !== postmasterPid) continue;
    total += (Number(fields[11]) + Number(fields[12])) / tick; // utime, stime
    if (Number(entry) === postmasterPid) total += (Number(fields[13]) + Number(fields[14])) / tick; // cutime, cstime: exited children
  }
  return total;
}

/** CPU seconds (user + system, all threads) a live process has used so far, from /proc; 0 once it has exited. */
export function processCpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in USER_HZ
  } catch {
    return 0;
  }
}

/** Whole-machine CPU seconds from /proc/stat: busy (user, nice, system, irq, softirq) and steal. */
export function machineCpuSeconds(): { busy: number; steal: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = fields;
  return { busy: (user + nice + system + irq + softirq) / 100, steal: steal / 100 };
}

/**
 * A run's results: `results/<name>-<UTC time>.json` (everything measured) and `results/<name>-latest.md`
 * (overwritten each run). Returns the JSON file's path.
 */
export function writeResults(name: string, date: string, report: unknown, md: string): string {
  const dir = path.join(HERE, 'results');
  mkdirSync(dir, { recursive: true });
  const stamp = date.replace(/\.\d+Z$/, 'Z').replaceAll(':', ''); // 2026-11-22T031502Z: ISO 8601, file-name safe
  const file = path.join(dir, `${name}-${stamp}.json`);
  writeFileSync(file, JSON.stringify(report, null, 2) + '\n');
  writeFileSync(path.join(dir, `${name}-latest.md`), md);
  console.error(`bench: wrote ${path.relative(process.cwd(), file)} and ${name}-latest.md`);
  return file;
}

/** The SQL a command runs itself: an entity manager whose `execute` calls are handed to `record` too. */
export function recordingExecute<T extends object>(em: T, record: (statement: { text: string; values: unknown[] }) => void): T {
  return new Proxy(em, {
    get(target, prop, receiver) {
      if (prop === 'execute') {
        return (sql: string, params: unknown[]) => {
          let n = 0; // Postgres placeholders for the same statement
          record({ text: sql.replace(/\?/g, () => `$${++n}`), values: params });
          return (target as { execute(sql: string, params: unknown[]): unknown }).execute(sql, params);
        };
      }
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

export interface ApiOptions {
  /** the API's MikroORM pool (10) */
  poolMax?: number;
  /** also run the graphile-worker job runner in this process, as `npm start` does */
  worker?: { concurrency?: number; log?: (level: string, message: string) => void; earlySizes?: boolean };
  /** serve HTTP (default); false for a process that only runs the worker, as `npm run worker` */
  http?: boolean;
  /** reuse an accepted API key for this long (API_KEY_CACHE_MS; `npm start` uses 1000); 0 by default */
  apiKeyCacheMs?: number;
  /** LISTEN for key changes on this URL and hold the idempotency lease there, as `npm start` does with DATABASE_DIRECT_URL (a direct connection, never through a transaction pooler) */
  directUrl?: string;
  /** listen on this port (a free one by default); processes of one Node `cluster` share it */
  port?: number;
  /** listen for changes (as `npm start`) and keep public reads (API_READ_CACHE); needs `apiKeyCacheMs`. Off by default */
  readCache?: boolean;
}

/**
 * The real API (`buildApp`) listening on 127.0.0.1 (unless `http: false`) over an existing, migrated database, with the
 * offline ports (files under `dir`), the operator console, and the job worker when asked for.
 * `stop()` stops the worker (letting running jobs finish for up to 2 s), the server and the pool.
 */
export async function startApi(databaseUrl: string, dir: string, opts: ApiOptions & { migrate?: boolean } = {}) {
  const [{ createOrm }, { migrate }, { freePort }, { consoleCaller }, { consoleContext }, { localPorts }, { startWorker }, { buildApp }] = await Promise.all([
    import('@hm/db/orm'),
    import('@hm/db/migrate'),
    import('@hm/db/testing/global-setup'),
    import('@hm/contract/console'),
    import('@hm/domain/core'),
    import('@hm/domain/ports'),
    import('@hm/jobs/worker'),
    import('../apps/api/src/app.js'),
  ]);
  const orm = await createOrm(databaseUrl, { poolMax: opts.poolMax ?? 10 });
  if (opts.migrate) await migrate(orm);
  const ports = localPorts({ dataDir: dir, mode: 'test' });
  const port = opts.port ?? (await freePort());
  const apiUrl = `http://127.0.0.1:${port}`;
  // LISTEN (key changes and, with the read cache, public reads' changes) on the direct URL when there is one, never through a pooler
  const listenUrl = opts.directUrl ?? (opts.readCache ? databaseUrl : undefined);
  const app = await buildApp({
    orm,
    mode: 'test',
    apiUrl,
    ports,
    apiKeyCacheMs: opts.apiKeyCacheMs ?? 0,
    ...(listenUrl ? { keyChangesUrl: listenUrl } : {}),
    ...(opts.directUrl ? { directUrl: opts.directUrl } : {}),
    readCache: opts.readCache ?? false,
  });
  if (opts.http !== false) await app.listen({ port, host: '127.0.0.1' });
  const worker = opts.worker
    ? await startWorker({ connectionString: databaseUrl, concurrency: opts.worker.concurrency ?? 4, deps: { orm, mode: 'test', mailFrom: 'bench@localhost', ports }, ...(opts.worker.log ? { log: opts.worker.log } : {}), ...(opts.worker.earlySizes === false ? { earlySizes: false } : {}) })
    : undefined;
  const operator = consoleCaller(consoleContext({ orm, mode: 'test', ports, publicUrl: apiUrl }, 'bench'));
  return {
    orm,
    ports,
    apiUrl,
    app,
    worker,
    operator,
    async stop() {
      await worker?.stop({ graceMs: 2000 }).catch(() => {});
      await app.close().catch(() => {});
      await orm.close(true).catch(() => {});
    },
  };
}

/**
 * `startApi` over a fresh embedded PostgreSQL in a temp dir (migrated, `fsync` off), for benchmarks
 * that call the server as a storefront would. `stop()` closes everything and removes the dir.
 */
export async function startApiStack(name: string, opts: ApiOptions & { preload?: string[] } = {}) {
  const [{ startEmbeddedPostgres }, { freePort }] = await Promise.all([import('@hm/db/postgres'), import('@hm/db/testing/global-setup')]);
  const dir = mkdtempSync(path.join(os.tmpdir(), `hm-bench-${name}-`));
  chmodSync(dir, 0o755);
  console.error(`bench:${name} starting Postgres…`);
  const db = await startEmbeddedPostgres({ pgDir: path.join(dir, 'pg'), port: await freePort(), ephemeral: true, ...(opts.preload ? { preload: opts.preload } : {}) });
  try {
    const api = await startApi(db.url, dir, { ...opts, migrate: true });
    return {
      ...api,
      dir,
      db,
      async stop() {
        await api.stop();
        await db.stop().catch(() => {});
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (e) {
    await db.stop().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}

/** Runs a benchmark's `main` as the process: exit 0 when done, 1 on an error or after `limitMs`. */
export function runBench(name: string, main: () => Promise<unknown>, limitMs = 600_000): void {
  const timer = setTimeout(() => {
    console.error(`bench:${name} took over ${limitMs / 1000} s; giving up`);
    process.exit(1);
  }, limitMs);
  timer.unref();
  main().then(
    () => process.exit(0),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
