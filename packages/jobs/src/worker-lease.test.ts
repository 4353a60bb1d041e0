import { expect, inject, test } from 'vitest';
import pg from 'pg';
import { createTestDatabase } from '@hm/db/testing';
import { WorkerLease, unlockDeadWorkers } from './worker-lease.js';

test('jobs of a pool whose lease is gone are unlocked; a live pool’s and one-off runs’ jobs are left alone', async () => {
  const url = await createTestDatabase(inject('adminDatabaseUrl'));
  const pool = new pg.Pool({ connectionString: url, max: 3 });
  const lease = new WorkerLease(url, () => {});
  try {
    for (const key of ['dead', 'alive', 'once']) await pool.query(`select graphile_worker.add_job('send-email', '{}'::json, job_key => $1)`, [key]);
    const lock = (key: string, by: string) => pool.query(`update graphile_worker._private_jobs set locked_by = $2, locked_at = now() where key = $1`, [key, by]);
    await lock('dead', 'pool-dead');
    await lock('alive', 'pool-alive');
    await lock('once', 'otpool-once'); // runOnce (tests, tools): not ours to judge
    lease.hold('pool-alive');
    await lease.whenHeld();

    expect(await unlockDeadWorkers(pool, 50)).toEqual(['pool-dead']);
    const { rows } = await pool.query(`select key, locked_by from graphile_worker.jobs order by key`);
    expect(rows).toEqual([
      { key: 'alive', locked_by: 'pool-alive' },
      { key: 'dead', locked_by: null },
      { key: 'once', locked_by: 'otpool-once' },
    ]);

    // The lease ends with its process (here: its connection): then that pool's jobs go too.
    await lease.close();
    expect(await unlockDeadWorkers(pool, 50)).toEqual(['pool-alive']);
  } finally {
    await lease.close();
    await pool.end();
  }
});

test('a lease lost for a moment (its connection killed) is taken back before a second look judges the pool dead', async () => {
  const url = await createTestDatabase(inject('adminDatabaseUrl'));
  const pool = new pg.Pool({ connectionString: url, max: 3 });
  const lease = new WorkerLease(url, () => {});
  try {
    await pool.query(`select graphile_worker.add_job('send-email', '{}'::json, job_key => 'k')`);
    await pool.query(`update graphile_worker._private_jobs set locked_by = 'pool-x', locked_at = now()`);
    lease.hold('pool-x');
    await lease.whenHeld();
    await pool.query(`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'hm-worker-lease' and datname = current_database()`);
    const leases = async () => (await pool.query(`select count(*)::int as n from pg_stat_activity where application_name = 'hm-worker-lease' and datname = current_database()`)).rows[0].n;
    while ((await leases()) > 0) await new Promise((r) => setTimeout(r, 20)); // the lock is free now
    // first look: free (the lease is reconnecting); second look 3 s later: held again
    expect(await unlockDeadWorkers(pool, 3000)).toEqual([]);
    expect((await pool.query(`select locked_by from graphile_worker.jobs`)).rows).toEqual([{ locked_by: 'pool-x' }]);
  } finally {
    await lease.close();
    await pool.end();
  }
});
