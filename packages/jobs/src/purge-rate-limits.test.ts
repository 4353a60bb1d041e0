import { expect, test } from 'vitest';
import pg from 'pg';
import { purgeRateLimitsTask, repriceAllTask } from '@hm/domain/tasks';
import { insertMarketplaces, testWorker } from './test-worker.js';

/** Two marketplaces in a database whose owner (the worker's role) is not a superuser, so row-level security applies to it. */
async function database() {
  // reprice-all alone: the reprice-listings jobs it queues stay queued to be counted
  const w = await testWorker({ owned: true, only: [purgeRateLimitsTask, repriceAllTask] });
  const admin = new pg.Client({ connectionString: w.adminUrl });
  await admin.connect();
    const ids = await insertMarketplaces(admin, ['a', 'b']);
  return {
    admin,
    ids,
    run: w.runJobs,
    close: async () => {
      await admin.end();
      await w.close();
    },
  };
}

test('purge-rate-limits drops every marketplace’s counters whose window began over a day ago and keeps the rest', async () => {
  const { admin, ids, run, close } = await database();
  try {
    for (const id of ids) {
      for (const [subject, age] of [
        ['old@example.com', '25 hours'],
        ['recent@example.com', '2 hours'],
      ]) {
        await admin.query(`insert into rate_limits (marketplace_id, bucket, subject, window_start, count) values ($1, 'sign_in_failures', $2, now() - $3::interval, 3)`, [id, subject, age]);
      }
    }
    await admin.query(`select graphile_worker.add_job('purge-rate-limits', '{}'::json)`);
    await run();
    const left = await admin.query('select marketplace_id, subject from rate_limits order by 1');
    expect(left.rows).toEqual([...ids].sort().map((id) => ({ marketplace_id: id, subject: 'recent@example.com' })));
  } finally {
    await close();
  }
});

test('reprice-all queues one reprice-listings job per marketplace (keyed, so twice is still one each)', async () => {
  const { admin, ids, run, close } = await database();
  try {
    await admin.query(`select graphile_worker.add_job('reprice-all', '{}'::json)`);
    await admin.query(`select graphile_worker.add_job('reprice-all', '{}'::json)`);
    await run();
    const jobs = await admin.query(`select key from graphile_worker.jobs where task_identifier = 'reprice-listings' order by key`);
    expect(jobs.rows.map((r) => r.key)).toEqual(ids.map((id) => `reprice-listings:${id}`).sort());
  } finally {
    await close();
  }
});
