import { randomUUID } from 'node:crypto';
import { expect, test } from 'vitest';
import { parseCrontab } from 'graphile-worker';
import { addJob, BULK_PRIORITY, TASKS, processImageTask, sendEmailTask } from '@hm/domain/tasks';
import { tenantEm } from '@hm/db/orm';
import { crontab } from './task-list.js';
import { testWorker } from './test-worker.js';

test('a job whose payload does not parse is logged as an error and dropped, not retried', async () => {
  const w = await testWorker();
  const db = w.orm.em.getConnection();
  try {
    await db.execute(`select graphile_worker.add_job(?, '{"email_id": "not-a-uuid"}'::json)`, [sendEmailTask.name]);
    await w.runJobs();
    const errors = w.logs.filter((l) => l.level === 'error').map((l) => l.message);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^send-email job \d+ dropped without retry: payload \{"email_id":"not-a-uuid"\} does not match the task: /);
    expect(errors[0]).toContain('marketplace_id');
    expect(errors[0]).toContain('email_id');
    // completed, not left to retry: the worker may record completion a moment after runOnce resolves
    let open = -1;
    for (let i = 0; i < 50 && open !== 0; i++) {
      open = (await db.execute<{ n: number }[]>(`select count(*)::int as n from graphile_worker.jobs`))[0]!.n;
      if (open !== 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(open).toBe(0);
  } finally {
    await w.close();
  }
});

test('the daily import-rates task does nothing without a rates source and says so', async () => {
  const w = await testWorker();
  try {
    await w.orm.em.getConnection().execute(`select graphile_worker.add_job('import-rates', '{}'::json)`);
    await w.runJobs();
    expect(w.logs.filter((l) => l.level === 'info' && l.message.startsWith('import-rates')).map((l) => l.message)).toEqual(['import-rates {}: no RATES_URL set; rates come from the console only']);
  } finally {
    await w.close();
  }
});

test('every task has one unique name and every recurring job names a task', () => {
  const names = TASKS.map((t) => t.name);
  expect(new Set(names).size).toBe(names.length);
  const recurring = parseCrontab(crontab).map((item) => item.task);
  expect(recurring).toEqual(['purge-idempotency-keys', 'purge-rate-limits', 'import-rates', 'reprice-all', 'purge-events']);
  for (const task of recurring) expect(names).toContain(task);
});

test('bulk work waits for the rest: an email added after a burst of photo jobs runs first', async () => {
  const w = await testWorker({ only: [processImageTask, sendEmailTask] });
  try {
    const marketplace_id = randomUUID();
    await tenantEm(w.orm, marketplace_id).transactional(async (em) => {
      for (let i = 0; i < 3; i++) await addJob(em, processImageTask, { marketplace_id, image_id: randomUUID() });
      await addJob(em, sendEmailTask, { marketplace_id, email_id: randomUUID() });
    });
    const queued = await w.orm.em.getConnection().execute<{ task_identifier: string; priority: number }[]>(`select task_identifier, priority from graphile_worker.jobs order by id`);
    expect(queued).toEqual([...Array(3).fill({ task_identifier: 'process-image', priority: BULK_PRIORITY }), { task_identifier: 'send-email', priority: 0 }]);
    await w.runJobs();
    const ran = w.logs.map((l) => /^(process-image|send-email)\b/.exec(l.message)?.[1]).filter(Boolean);
    expect(ran[0], JSON.stringify(w.logs)).toBe('send-email');
    expect(ran.filter((t) => t === 'process-image').length).toBeGreaterThanOrEqual(3);
  } finally {
    await w.close();
  }
});
