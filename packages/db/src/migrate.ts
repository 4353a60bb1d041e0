import type { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import { Logger, runMigrations } from 'graphile-worker';
import { crossTenantEm } from './tenancy.js';

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


const silentLogger = new Logger(() => () => {});
