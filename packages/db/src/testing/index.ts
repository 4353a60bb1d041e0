import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { TEMPLATE_DB, withDatabase } from './global-setup.js';

export { freePort } from './global-setup.js';

/** A fresh, migrated database cloned from the run's template; returns its URL. */
export async function createTestDatabase(adminUrl: string): Promise<string> {
  const name = `hm_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name} template ${TEMPLATE_DB}`);
  } finally {
    await admin.end();
  }
  return withDatabase(adminUrl, name);
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of the run's PostgreSQL server (provided by global-setup) */
    adminDatabaseUrl: string;
  }
}
