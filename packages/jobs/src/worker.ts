import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { run, Logger, type Runner, type WorkerEvents } from 'graphile-worker';
import { WORKER_HEARTBEAT_MS } from '@hm/domain/doctor';
import { allowEarlyDerivatives } from '@hm/domain/images';
import { createTaskList, crontab, type TaskDeps } from './task-list.js';
import { WorkerLease, unlockDeadWorkers, unlockWorker } from './worker-lease.js';

export { createTaskList, crontab, type TaskDeps };

export interface Worker {
  /** the graphile-worker pool id its jobs are locked with (changes when the runner is restarted) */
  readonly poolId: string | undefined;
  /**
   * Takes no new jobs, lets running ones finish for up to `graceMs`, then releases the rest (unlocked,
   * not failed: another worker runs them at once) and closes its connections.
   */
  stop(opts?: { graceMs?: number }): Promise<void>;
}

type Log = (level: string, message: string) => void;

/**
 * Job results recorded in batches (of whatever arrives within the same tick). Unbatched, the
 * default, graphile-worker records a job's result without awaiting it: a database gone at that
 * moment is an unhandled rejection that ends the process, and `runOnce` resolves before the result
 * is written (a test then saw a finished job still locked, or a failed one without its error).
 * Batched, a failure stops the runner instead, and stopping (or `runOnce`) waits for the batch.
 */
export const RECORD_RESULTS_BEFORE_RETURNING = { worker: { completeJobBatchDelay: 0, failJobBatchDelay: 0 } };

/** How often a running worker looks for jobs of runners that died elsewhere. */
const SWEEP_INTERVAL_MS = 30_000;

const STOP_GRACE_MS = 10_000;
/**
 * Longest wait between attempts to start a new runner while the database is away. An attempt is one
 * connection refused, so it is cheap; a long wait is not: the database back after 16 s of crash
 * recovery on a loaded machine met a runner asleep until 31 s, and emails (sign-in links) waited.
 */
const RELAUNCH_MAX_DELAY_MS = 2000;

/**
 * Runs graphile-worker inside Postgres: in the API process by default, or alone (`npm run worker`).
 * Signals are left to the caller, which shuts down the API, the worker and the database in order.
 *
 * It outlives the database: connections the server drops are logged, not fatal (our pool's error
 * handlers); graphile-worker itself retries fetching jobs and listening; and when its runner gives up
 * (it stops on errors it cannot record, e.g. completing a job while the database is down) a new one
 * is started, with backoff, once the database answers again. Its jobs are guarded by a lease (see
 * worker-lease.ts): on start and every half minute it unlocks the jobs of runners that died.
 */
export async function startWorker(opts: {
  connectionString: string;
  deps: TaskDeps;
  concurrency?: number;
  log?: Log;
  /** photo uploads to this process start their sizes for its jobs to take (early-derivatives.ts); default true */
  earlySizes?: boolean;
}): Promise<Worker> {
  const log: Log = (level, message) => opts.log?.(level, message);
  const concurrency = opts.concurrency ?? 4;
  const pool = new pg.Pool({ connectionString: opts.connectionString, max: concurrency + 2, connectionTimeoutMillis: 5000 });
  pool.on('error', (err) => log('warning', `worker database connection: ${err.message}`));
  pool.on('connect', (client) => client.on('error', (err) => log('warning', `worker database client: ${err.message}`)));
  const lease = new WorkerLease(opts.connectionString, (level, message) => log(level, message));
  let current: { runner: Runner; poolId: string } | undefined;
  let stopping = false;

  const launch = async () => {
    const events = new EventEmitter() as WorkerEvents;
    let poolId = '';
    events.on('pool:create', ({ workerPool }) => {
      poolId = workerPool.id;
      lease.hold(poolId);
    });
    const runner = await run({
      pgPool: pool,
      concurrency,
      taskList: createTaskList(opts.deps),
      crontab,
      noHandleSignals: true,
      pollInterval: 1000,
      events,
      forbiddenFlags: () => lease.whenHeld(),
      // a failure to record a result stops this runner, and `relaunch` below starts another once the database is back
      preset: RECORD_RESULTS_BEFORE_RETURNING,
      logger: new Logger(() => (level, message) => log(level, message)),
    });
    const launched = { runner, poolId };
    current = launched;
    runner.promise.then(
      () => relaunch(launched.poolId, 'it stopped'),
      (e: Error) => relaunch(launched.poolId, e.message),
    );
  };

  const relaunch = async (oldPoolId: string, why: string) => {
    if (stopping) return;
    current = undefined;
    log('warning', `job runner ended (${why}); starting a new one`);
    for (let attempt = 1, delay = 250; !stopping; attempt++, delay = Math.min(delay * 2, RELAUNCH_MAX_DELAY_MS)) {
      try {
        await unlockWorker(pool, oldPoolId); // its jobs can run again now, not in 4 hours
        await launch();
        log('info', 'job runner restarted');
        return;
      } catch (e) {
        // said once at warning level; the retries every couple of seconds of a long outage only at debug
        log(attempt === 1 ? 'warning' : 'debug', `job runner cannot start yet (attempt ${attempt}): ${(e as Error).message}`);
        await sleep(delay);
      }
    }
  };

  // The heartbeat: this process's row, beaten while it runs (also while the database restarts: a beat that fails is tried at the next one).
  const heartbeat = { id: randomUUID(), host: hostname(), pid: process.pid, startedAt: new Date() };
  const beat = () =>
    pool
      .query(`insert into worker_heartbeats (id, host, pid, started_at, beat_at) values ($1, $2, $3, $4, now()) on conflict (id) do update set beat_at = now()`, [
        heartbeat.id,
        heartbeat.host,
        heartbeat.pid,
        heartbeat.startedAt,
      ])
      .then(
        () => undefined,
        (e: Error) => log('debug', `worker heartbeat: ${e.message}`),
      );

  const sweep = () =>
    // the rows of runners that died without stopping are kept a day (the go-live check says when one last beat), then go
    pool.query(`delete from worker_heartbeats where beat_at < now() - interval '1 day'`).catch(() => undefined).then(() => unlockDeadWorkers(pool)).then(
      (dead) => dead.length && log('info', `released the jobs of ${dead.length} stopped worker(s): ${dead.join(', ')}`),
      (e: Error) => log('debug', `looking for stopped workers: ${e.message}`),
    );

  await launch();
  // photo uploads to this process may start their sizes before their job comes (early-derivatives.ts)
  const disallowEarly = opts.earlySizes === false ? () => {} : allowEarlyDerivatives();
  void sweep();
  const sweeper = setInterval(() => void sweep(), SWEEP_INTERVAL_MS);
  sweeper.unref();
  await beat();
  const beater = setInterval(() => void beat(), WORKER_HEARTBEAT_MS);
  beater.unref();

  return {
    get poolId() {
      return current?.poolId;
    },
    async stop({ graceMs = STOP_GRACE_MS } = {}) {
      if (stopping) return;
      stopping = true;
      disallowEarly();
      clearInterval(sweeper);
      clearInterval(beater);
      const last = current;
      const stopped = last ? last.runner.stop().catch(() => {}) : Promise.resolve();
      lease.drain(); // after stop(): runners waiting for the lease now see they are stopping
      await within(stopped, graceMs);
      // whatever is still running is released for another worker rather than left locked
      if (last) await unlockWorker(pool, last.poolId).catch((e: Error) => log('warning', `releasing jobs: ${e.message}`));
      await lease.close();
      // a worker that stopped is not alive: its row goes (a crashed one's simply grows old)
      await pool.query('delete from worker_heartbeats where id = $1', [heartbeat.id]).catch(() => {});
      await within(pool.end(), 2000);
    },
  };
}

/** Waits for `p`, but no longer than `ms` (without a timer left to hold the process open). */
async function within(p: Promise<unknown>, ms: number): Promise<void> {
  const timeout = new AbortController();
  await Promise.race([p, sleep(ms, undefined, { signal: timeout.signal }).catch(() => {})]);
  timeout.abort();
}
