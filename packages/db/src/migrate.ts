import type { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import { Logger, runMigrations } from 'graphile-worker';
import { crossTenantEm } from './tenancy.js';
import { migrationsList } from './migrations/index.js';

/**
 * Applies pending migrations (ours, then graphile-worker's job schema, so a request can add a job
 * in its own transaction before any worker has ever started); returns the names of ours applied.
 * Ours run in one cross-tenant transaction: a migration that moves data sees every marketplace's
 * rows even when the connecting role is not a superuser (row-level security is forced on owners).
 */
export async function migrate(orm: MikroORM): Promise<string[]> {
  const applied = await crossTenantEm(orm).transactional((em) => orm.migrator.up({ transaction: em.getTransactionContext() }));
  const pool = new pg.Pool({ connectionString: orm.config.get('clientUrl'), max: 1 });
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  try {
    await runMigrations({ pgPool: pool, logger: silentLogger });
  } finally {
    await pool.end();
  }
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

const silentLogger = new Logger(() => () => {});
