import { expect, test } from 'vitest';
import pg from 'pg';
import { testWorker } from './test-worker.js';

test('purge-idempotency-keys deletes records older than 24 hours and keeps the rest', async () => {
  const w = await testWorker();
  const client = new pg.Client({ connectionString: w.url });
  await client.connect();
  try {
    const { rows } = await client.query(
      `insert into marketplaces (id, name, slug, locales, listing_rules, shipping, created_at, updated_at)
       values (gen_random_uuid(), 'M', 'm', '{en}', '{}', '{}', now(), now()) returning id`,
    );
    const id = rows[0].id;
    for (const [key, age] of [
      ['00000000-0000-4000-8000-000000000001', '25 hours'],
      ['00000000-0000-4000-8000-000000000002', '23 hours'],
    ]) {
      await client.query(
        `insert into idempotency_keys (marketplace_id, scope, key, fingerprint, state, created_at, locked_at) values ($1, 's', $2, 'f', 'done', now() - $3::interval, now())`,
        [id, key, age],
      );
    }
    await client.query(`select graphile_worker.add_job('purge-idempotency-keys', '{}'::json)`);
    await w.runJobs();
    const left = await client.query('select key from idempotency_keys order by key');
    expect(left.rows.map((r) => r.key)).toEqual(['00000000-0000-4000-8000-000000000002']);
    // ran and completed: the worker may record completion a moment after runOnce resolves
    let open = -1;
    for (let i = 0; i < 50 && open !== 0; i++) {
      open = (await client.query(`select count(*)::int as n from graphile_worker.jobs`)).rows[0].n;
      if (open !== 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(open).toBe(0);
  } finally {
    await client.end();
    await w.close();
  }
});
