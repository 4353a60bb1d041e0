import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import { crossTenantEm } from './tenancy.js';
import { migrationsList } from './migrations/index.js';

/**
 * Applies pending migrations (ours, then graphile-worker's job schema, so a request can add a job
 * in its own transaction before any worker has ever started); returns the names of ours applied.
 * Ours run in one cross-tenant transaction: a migration that moves data sees every marketplace's
 * rows even when the connecting role is not a superuser (row-level security is forced on owners).
 *
 * When the migrations table's comment says the last full run left exactly what this code migrates
 * to (our last migration, this graphile-worker version), that one statement is all: neither
 * migrator runs and graphile-worker is not loaded (a console command paid both at every start).
 */
export async function migrate(orm: MikroORM): Promise<string[]> {
  const expected = { ours: migrationsList.at(-1)!.name, worker: workerVersion() };
  if (await upToDate(orm, expected)) return [];
  const applied = await crossTenantEm(orm).transactional((em) => orm.migrator.up({ transaction: em.getTransactionContext() }));
  const { Logger, runMigrations } = await import('graphile-worker');
  const pool = new pg.Pool({ connectionString: orm.config.get('clientUrl'), max: 1 });
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  try {
    await runMigrations({ pgPool: pool, logger: new Logger(() => () => {}) });
  } finally {
    await pool.end();
  }
  // what this run left, for the next process's one-statement check (a comment: no table of its own)
  await orm.em.getConnection().execute(`comment on table mikro_orm_migrations is '${stateOf(expected)}'`);
  return applied.map((m) => m.name);
}

/**
 * Whether the database is at this code's schema: our migrations not yet applied (`pending`), and
 * applied ones this code does not know (`unknown`: the database was migrated by a newer version).
 */
export async function migrationStatus(orm: MikroORM): Promise<{ applied: number; latest: string | null; pending: string[]; unknown: string[] }> {
  const [executed, pending] = await Promise.all([orm.migrator.getExecuted(), orm.migrator.getPending()]);
  const known = new Set(migrationsList.map((m) => m.name));
  const names = executed.map((m) => m.name.replace(/\.[jt]s$/, ''));
  return { applied: names.length, latest: names.at(-1) ?? null, pending: pending.map((m) => m.name), unknown: names.filter((n) => !known.has(n)) };
}

/** `ours=<our last migration>; graphile-worker=<version>`: names and a version, no quotes in either. */
const stateOf = (s: { ours: string; worker: string }) => `ours=${s.ours}; graphile-worker=${s.worker}`.replace(/'/g, '');

async function upToDate(orm: MikroORM, expected: { ours: string; worker: string }): Promise<boolean> {
  const [row] = await orm.em.getConnection().execute<{ state: string | null }[]>(`select obj_description(to_regclass('mikro_orm_migrations'), 'pg_class') as state`);
  return row?.state === stateOf(expected);
}

/** The installed graphile-worker's version (its package.json, found from its entry point). */
function workerVersion(): string {
  const entry = createRequire(import.meta.url).resolve('graphile-worker');
  let dir = path.dirname(entry);
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'graphile-worker' && pkg.version) return pkg.version;
    } catch {
      // not here: one folder up
    }
    const up = path.dirname(dir);
    if (up === dir) throw new Error('graphile-worker/package.json not found');
    dir = up;
  }
}
