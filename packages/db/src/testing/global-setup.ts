import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../postgres.js';
import { freePort } from '../postgres-dir.js';
import { createOrm } from '../orm.js';
import { migrate } from '../migrate.js';

export const TEMPLATE_DB = 'hm_template';
export { freePort };

/**
 * vitest globalSetup: one PostgreSQL per test run (embedded, or the server in TEST_DATABASE_URL),
 * with a migrated template database that each test file clones (CREATE DATABASE … TEMPLATE).
 */
export default async function setup(project: { provide: (key: string, value: unknown) => void }) {
  let adminUrl = process.env.TEST_DATABASE_URL;
  let stop = async () => {};
  let dir: string | undefined;
  if (!adminUrl) {
    dir = mkdtempSync(path.join(tmpdir(), 'hm-test-pg-'));
    chmodSync(dir, 0o755); // the postgres user must reach its data directory inside
    const db = await startEmbeddedPostgres({ pgDir: path.join(dir, 'pg'), port: await freePort(), ephemeral: true });
    adminUrl = db.url;
    stop = db.stop;
  }
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${TEMPLATE_DB}`);
  await admin.query(`create database ${TEMPLATE_DB}`);
  await admin.end();
  const orm = await createOrm(withDatabase(adminUrl, TEMPLATE_DB));
  await migrate(orm);
  await orm.close(true);
  project.provide('adminDatabaseUrl', adminUrl);
  return async () => {
    await stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  };
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
