import { expect, test } from 'vitest';
import pg from 'pg';
import { purgeRateLimitsTask, repriceAllTask } from '@hm/domain/tasks';
import { testWorker } from './test-worker.js';

async function database() {
  // reprice-all alone: the reprice-listings jobs it queues stay queued to be counted
  const w = await testWorker({ only: [purgeRateLimitsTask, repriceAllTask] });
  const client = new pg.Client({ connectionString: w.url });
  await client.connect();
  const ids: string[] = [];
  for (const slug of ['a', 'b']) {
    const { rows } = await client.query(
      `insert into marketplaces (id, name, slug, locales, listing_rules, shipping, created_at, updated_at) values (gen_random_uuid(), $1, $1, '{en}', '{}', '{}', now(), now()) returning id`,
      [slug],
    );
    ids.push(rows[0].id);
  }
  const end = async () => {
    await client.end();
    await w.close();
  };
  return { client, ids, w, end };
}

test('purge-rate-limits drops counters whose window began over a day ago and keeps the rest', async () => {
  const { client, ids, w, end } = await database();
  try {
    for (const [subject, age] of [
      ['old@example.com', '25 hours'],
      ['recent@example.com', '2 hours'],
    ]) {
      await client.query(`insert into rate_limits (marketplace_id, bucket, subject, window_start, count) values ($1, 'sign_in_failures', $2, now() - $3::interval, 3)`, [ids[0], subject, age]);
    }
    await client.query(`select graphile_worker.add_job('purge-rate-limits', '{}'::json)`);
    await w.runJobs();
    const left = await client.query('select subject from rate_limits');
    expect(left.rows.map((r) => r.subject)).toEqual(['recent@example.com']);
  } finally {
    await end();
  }
});

test('reprice-all queues one reprice-listings job per marketplace (keyed, so twice is still one each)', async () => {
  const { client, ids, w, end } = await database();
  try {
    await client.query(`select graphile_worker.add_job('reprice-all', '{}'::json)`);
    await client.query(`select graphile_worker.add_job('reprice-all', '{}'::json)`);
    await w.runJobs();
    const jobs = await client.query(`select key from graphile_worker.jobs where task_identifier = 'reprice-listings' order by key`);
    expect(jobs.rows.map((r) => r.key)).toEqual(ids.map((id) => `reprice-listings:${id}`).sort());
  } finally {
    await end();
  }
});
