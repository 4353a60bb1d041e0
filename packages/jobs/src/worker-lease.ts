import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';

/**
 * Which job runners are alive, across processes and machines. graphile-worker locks a job with its
 * pool's id (`locked_by = 'pool-…'`) and frees jobs of a runner that died only after 4 hours, so a
 * 15-minute sign-in link would arrive expired. Each of our runners holds a session-level advisory
 * lock named after its pool id, on a connection of its own, for as long as it lives: when its
 * process dies (kill -9, a lost machine) Postgres closes the session and drops the lock at once.
 * A `pool-…` id holding jobs while its lock is free belongs to a dead runner, and its jobs are
 * unlocked so that another runner takes them within seconds.
 *
 * The lock is also lost while the database restarts, so an id must be seen free twice, `GRACE_MS`
 * apart (live runners take theirs back within a second of reconnecting). A runner that cannot get
 * its lock back for longer (database up but out of connections) is judged dead and its running jobs
 * may run twice — jobs are written to be safe to run twice (they re-check state first).
 */

/** The advisory lock key of a pool id (64-bit: collisions would only make a dead pool look alive). */
export const lockKey = (idSql: string) => `hashtextextended('hm-worker-lease:' || ${idSql}, 0)`;
export const LEASE_GRACE_MS = 5000;

type Log = (level: 'info' | 'warning' | 'debug', message: string) => void;

/** Holds the lock of this process's current pool id, reconnecting after the database comes back. */
export class WorkerLease {
  private client: pg.Client | undefined;
  private id: string | undefined;
  private lockedId: string | undefined;
  private closed = false;
  private draining = false;
  private loop: Promise<void> | undefined;
  private waiters: (() => void)[] = [];

  constructor(
    private readonly connectionString: string,
    private readonly log: Log,
  ) {}

  /** True while this process holds the lock of its current id. */
  get held(): boolean {
    return this.id !== undefined && this.lockedId === this.id;
  }

  /** Hold `id` from now on (instead of any earlier id). */
  hold(id: string): void {
    this.id = id;
    void this.ensure();
  }

  /**
   * For graphile-worker's `forbiddenFlags` hook, awaited before every job fetch: a runner takes
   * jobs only while its lock is held, so a sweeper never sees its fresh jobs as a dead runner's.
   */
  whenHeld(): null | Promise<null> {
    if (this.draining || (this.id && this.lockedId === this.id)) return null;
    return new Promise((resolve) => this.waiters.push(() => resolve(null)));
  }

  /**
   * Shutting down: a runner waiting for its lock (the database is away) may go on, so that it sees
   * it is stopping and ends; the lock itself stays held for the jobs still running.
   */
  drain(): void {
    this.draining = true;
    this.wake();
  }

  /** Ends the session, which releases the lock (a lock still being waited for is abandoned). */
  async close(): Promise<void> {
    this.closed = true;
    this.drain();
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
    await this.loop;
  }

  private wake() {
    for (const w of this.waiters.splice(0)) w();
  }

  private ensure(): Promise<void> {
    this.loop ??= (async () => {
      while (!this.closed && this.id && this.lockedId !== this.id) {
        const id = this.id;
        try {
          const client = this.client ?? (await this.connect());
          if (this.lockedId) await client.query(`select pg_advisory_unlock(${lockKey('$1')})`, [this.lockedId]);
          this.lockedId = undefined;
          await client.query(`select pg_advisory_lock(${lockKey('$1')})`, [id]);
          this.lockedId = id;
          this.wake();
        } catch (e) {
          this.drop(e as Error);
          if (this.closed) break;
          await sleep(1000);
        }
      }
    })().finally(() => (this.loop = undefined));
    return this.loop;
  }

  private async connect(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: this.connectionString, keepAlive: true, application_name: 'hm-worker-lease' });
    client.on('error', (e) => this.drop(e));
    client.on('end', () => this.drop(new Error('connection closed')));
    await client.connect();
    this.client = client;
    return client;
  }

  /** The connection (and with it the lock) is gone: take it back as soon as the database lets us. */
  private drop(err: Error) {
    const had = this.client;
    this.client = undefined;
    this.lockedId = undefined;
    if (had) {
      had.removeAllListeners();
      had.on('error', () => {});
      void had.end().catch(() => {});
    }
    if (this.closed) return;
    this.log('debug', `worker lease: ${err.message}; taking it back`);
    setTimeout(() => void this.ensure(), 1000).unref();
  }
}

const CANDIDATES = `
  select id from (
    select locked_by as id from graphile_worker._private_jobs where locked_by like 'pool-%'
    union
    select locked_by from graphile_worker._private_job_queues where locked_by like 'pool-%'
  ) c where pg_try_advisory_xact_lock(${lockKey('c.id')})`;

/**
 * Unlocks the jobs of dead runners (see above); returns their pool ids. Safe to run anywhere, any
 * time, concurrently: the second look and the unlock happen under the same transaction-level locks.
 */
export async function unlockDeadWorkers(pool: pg.Pool, graceMs = LEASE_GRACE_MS): Promise<string[]> {
  const first = await inTransaction(pool, async (c) => (await c.query<{ id: string }>(CANDIDATES)).rows.map((r) => r.id));
  if (first.length === 0) return [];
  await sleep(graceMs);
  return inTransaction(pool, async (c) => {
    const dead = (await c.query<{ id: string }>(`select id from (${CANDIDATES}) d where id = any($1::text[])`, [first])).rows.map((r) => r.id);
    if (dead.length) await c.query('select graphile_worker.force_unlock_workers($1::text[])', [dead]);
    return dead;
  });
}

/** Unlocks the jobs of a runner of ours that has stopped (its jobs can run elsewhere at once). */
export async function unlockWorker(pool: pg.Pool, poolId: string): Promise<void> {
  await pool.query('select graphile_worker.force_unlock_workers($1::text[])', [[poolId]]);
}

async function inTransaction<T>(pool: pg.Pool, fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const result = await fn(client);
    await client.query('commit');
    return result;
  } catch (e) {
    await client.query('rollback').catch(() => {});
    throw e;
  } finally {
    client.release();
  }
}
