import pg from 'pg';
import { expect, inject, test } from 'vitest';
import { migrate } from './migrate.js';
import { createOrm } from './orm.js';
import { createOwnedTestDatabase } from './testing/index.js';

/**
 * An external DATABASE_URL whose role is the database's owner but not a superuser and cannot
 * create roles: the DBA makes it a member of hm_app once (README: "Row-level security").
 */
test('without membership in hm_app the migrations stop, name the DBA’s statement and apply nothing', async () => {
  const db = await createOwnedTestDatabase(inject('adminDatabaseUrl'), { grantTenantRole: false, migrate: false });
  const orm = await createOrm(db.url, { poolMax: 2 });
  try {
    await expect(migrate(orm)).rejects.toThrow(new RegExp(`GRANT hm_app TO ${db.role};`));
  } finally {
    await orm.close(true);
  }
  const admin = new pg.Client({ connectionString: db.adminUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query(`select to_regclass('public.listings') as listings`);
    expect(rows[0].listings).toBeNull(); // all or nothing
  } finally {
    await admin.end();
  }
});

test('with it, the owner migrates, and rows are visible to it only in a cross-tenant transaction', async () => {
  const db = await createOwnedTestDatabase(inject('adminDatabaseUrl'));
  const owner = new pg.Client({ connectionString: db.url });
  await owner.connect();
  try {
    await owner.query(`insert into marketplaces (id, name, slug, locales, listing_rules, shipping, created_at, updated_at)
      values (gen_random_uuid(), 'M', 'm', '{en}', '{}', '{}', now(), now())`).then(
      () => expect.unreachable('a bare insert by the owner must be refused'),
      (e: Error) => expect(e.message).toMatch(/row-level security/),
    );
    await owner.query('begin');
    await owner.query(`select set_config('hm.cross_tenant', 'on', true)`);
    await owner.query(`insert into marketplaces (id, name, slug, locales, listing_rules, shipping, created_at, updated_at)
      values (gen_random_uuid(), 'M', 'm', '{en}', '{}', '{}', now(), now())`);
    await owner.query('commit');
    expect((await owner.query('select count(*)::int as n from marketplaces')).rows[0].n).toBe(0);
  } finally {
    await owner.end();
  }
});
