import type { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import { Logger, runMigrations } from 'graphile-worker';

/**
 * Applies pending migrations (ours, then graphile-worker's job schema, so a request can add a job
 * in its own transaction before any worker has ever started); returns the names of ours applied.
 */
export async function migrate(orm: MikroORM): Promise<string[]> {
  const applied = await orm.migrator.up();
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
