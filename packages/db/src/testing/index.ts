import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { TEMPLATE_DB, withDatabase } from './global-setup.js';
import { createOrm } from '../orm.js';
import { migrate } from '../migrate.js';
import { TENANT_ROLE } from '../tenancy.js';

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

/**
 * A fresh database owned by a new login role that is not a superuser, migrated as that role: what an
 * external DATABASE_URL often is, where row-level security applies to the connecting role too (FORCE).
 * The DBA's part (the role, its membership in hm_app) is done here with the admin URL. Returns the
 * owner's URL, and the admin's URL of the same database (a superuser: bypasses row-level security).
 */
export async function createOwnedTestDatabase(adminUrl: string, opts: { grantTenantRole?: boolean; migrate?: boolean } = {}): Promise<{ url: string; adminUrl: string; role: string }> {
  const suffix = randomBytes(6).toString('hex');
  const role = `hm_owner_${suffix}`;
  const name = `hm_owned_${suffix}`;
  const password = randomBytes(12).toString('hex');
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create role ${role} login password '${password}'`);
    if (opts.grantTenantRole ?? true) await admin.query(`grant ${TENANT_ROLE} to ${role}`);
    await admin.query(`create database ${name} owner ${role}`);
  } finally {
    await admin.end();
  }
  const u = new URL(withDatabase(adminUrl, name));
  const adminOfDatabase = u.toString();
  u.username = role;
  u.password = password;
  const url = u.toString();
  if (opts.migrate ?? true) {
    const orm = await createOrm(url, { poolMax: 2 });
    try {
      await migrate(orm);
    } finally {
      await orm.close(true);
    }
  }
  return { url, adminUrl: adminOfDatabase, role };
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of the run's PostgreSQL server (provided by global-setup) */
    adminDatabaseUrl: string;
  }
}
