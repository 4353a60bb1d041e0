import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { Logger, runOnce } from 'graphile-worker';
import { createOrm } from '@hm/db/orm';
import { createOwnedTestDatabase, createTestDatabase } from '@hm/db/testing';
import { localPorts, type Ports } from '@hm/domain/ports';
import type { TaskDefinition } from '@hm/domain/tasks';
import { createTaskList } from './task-list.js';
import { RECORD_RESULTS_BEFORE_RETURNING } from './worker.js';

/**
 * For tests: a fresh database, and the real task list over it with the offline ports (unless given
 * others), or only the tasks named in `only` (jobs of other tasks then stay queued). `runJobs` runs
 * due jobs until none is left, like the worker; `logs` collects the worker's lines. `owned`: the
 * worker connects as the database's owner, not a superuser, so row-level security applies to it
 * (`adminUrl` is the superuser's, for fixtures and checks).
 */
export async function testWorker(opts: { ports?: Partial<Ports>; only?: TaskDefinition[]; owned?: boolean } = {}) {
  const admin = inject('adminDatabaseUrl');
  const { url, adminUrl } = opts.owned ? await createOwnedTestDatabase(admin) : await createTestDatabase(admin).then((u) => ({ url: u, adminUrl: u }));
  const orm = await createOrm(url, { poolMax: 2 });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'hm-jobs-'));
  const all = createTaskList({ orm, mode: 'test', mailFrom: 'no-reply@shop.example', ports: { ...localPorts({ dataDir, mode: 'test' }), ...opts.ports } });
  const taskList = opts.only ? Object.fromEntries(opts.only.map((t) => [t.name, all[t.name]!])) : all;
  const logs: { level: string; message: string }[] = [];
  const logger = new Logger(() => (level, message) => logs.push({ level, message }));
  return {
    url,
    adminUrl,
    orm,
    logs,
    runJobs: () => runOnce({ connectionString: url, taskList, logger, preset: RECORD_RESULTS_BEFORE_RETURNING }),
    close: () => orm.close(true),
  };
}

/** Marketplaces made directly in SQL (as an administrator), one per slug: their ids, in order. */
export async function insertMarketplaces(admin: { query(text: string, values: unknown[]): Promise<{ rows: { id: string }[] }> }, slugs: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const slug of slugs) {
    const { rows } = await admin.query(
      `insert into marketplaces (id, name, slug, locales, listing_rules, shipping, created_at, updated_at) values (gen_random_uuid(), $1, $1, '{en}', '{}', '{}', now(), now()) returning id`,
      [slug],
    );
    ids.push(rows[0]!.id);
  }
  return ids;
}
