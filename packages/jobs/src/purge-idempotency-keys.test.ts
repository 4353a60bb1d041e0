import { expect, test } from 'vitest';
import pg from 'pg';
import { purgeIdempotencyKeysTask } from '@hm/domain/tasks';
import { testWorker } from './test-worker.js';

test('purge-idempotency-keys deletes every marketplace’s records older than 24 hours and keeps the rest (connecting role under row-level security)', async () => {
  // The worker connects as the database's owner, not a superuser: it crosses tenants only through crossTenantEm.
  const w = await testWorker({ owned: true, only: [purgeIdempotencyKeysTask] });
  const admin = new pg.Client({ connectionString: w.adminUrl });
  await admin.connect();
  try {
    for (const [slug, n] of [
      ['a', 1],
      ['b', 3],
    ] as const) {
      const { rows } = await admin.query(
        `insert into marketplaces (id, name, slug, locales, listing_rules, shipping, created_at, updated_at)
         values (gen_random_uuid(), $1, $1, '{en}', '{}', '{}', now(), now()) returning id`,
        [slug],
      );
      for (const [key, age] of [
        [`00000000-0000-4000-8000-00000000000${n}`, '25 hours'],
        [`00000000-0000-4000-8000-00000000000${n + 1}`, '23 hours'],
      ]) {
        await admin.query(
          `insert into idempotency_keys (marketplace_id, scope, key, fingerprint, state, created_at, locked_at) values ($1, 's', $2, 'f', 'done', now() - $3::interval, now())`,
          [rows[0].id, key, age],
        );
      }
    }
    await admin.query(`select graphile_worker.add_job('purge-idempotency-keys', '{}'::json)`);
    await w.runJobs();
    const left = await admin.query('select key from idempotency_keys order by key');
    expect(left.rows.map((r) => r.key)).toEqual(['00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000004']);
    // ran and completed: the worker may record completion a moment after runOnce resolves
    let open = -1;
    for (let i = 0; i < 50 && open !== 0; i++) {
      open = (await admin.query(`select count(*)::int as n from graphile_worker.jobs`)).rows[0].n;
      if (open !== 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(open).toBe(0);
  } finally {
    await admin.end();
    await w.close();
  }
});
