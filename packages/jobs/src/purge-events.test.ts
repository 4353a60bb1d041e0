import { expect, test } from 'vitest';
import pg from 'pg';
import { purgeEventsTask } from '@hm/domain/tasks';
import { insertMarketplaces, testWorker } from './test-worker.js';

test('purge-events drops every marketplace’s events older than 30 days and keeps the rest (connecting role under row-level security)', async () => {
  const w = await testWorker({ owned: true, only: [purgeEventsTask] });
  const admin = new pg.Client({ connectionString: w.adminUrl });
  await admin.connect();
  try {
    const ids = await insertMarketplaces(admin, ['a', 'b']);
    for (const id of ids) {
      for (const [sequence, age] of [
        [1, '30 days 1 minute'],
        [2, '29 days 23 hours'],
      ] as const) {
        await admin.query(`insert into events (marketplace_id, sequence, id, type, data, created_at) values ($1, $2, $3, 'user.created', '{"object": {}}', now() - $4::interval)`, [id, sequence, `evt_${id}_${sequence}`, age]);
      }
    }
    await admin.query(`select graphile_worker.add_job('purge-events', '{}'::json)`);
    await w.runJobs();
    const left = await admin.query('select marketplace_id, sequence::int from events order by 1');
    expect(left.rows).toEqual([...ids].sort().map((id) => ({ marketplace_id: id, sequence: 2 })));
  } finally {
    await admin.end();
    await w.close();
  }
});
