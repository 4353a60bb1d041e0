import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { createOrm, crossTenantEm, tenantEm, type MikroORM } from './orm.js';
import { crossTenantSql, jobSql, tenantSql, UnscopedSqlError } from './sql.js';
import { createTestDatabase } from './testing/index.js';

let orm: MikroORM;
const A = '00000000-0000-7000-8000-00000000000a';
const B = '00000000-0000-7000-8000-00000000000b';

beforeAll(async () => {
  orm = await createOrm(await createTestDatabase(inject('adminDatabaseUrl')), { poolMax: 2 });
});
afterAll(() => orm.close(true));

describe('tenantSql', () => {
  test('binds the context’s marketplace itself wherever the statement names it', async () => {
    const sql = tenantSql(tenantEm(orm, A));
    const [row] = await sql<{ m: string; again: string; x: number }>`select ${sql.marketplace}::uuid as m, ${sql.marketplace}::text as again, ${41}::int + 1 as x`;
    expect(row).toEqual({ m: A, again: A, x: 42 });
    const [built] = await sql.query<{ m: string }>('select ?::uuid as m', [sql.marketplace]);
    expect(built!.m).toBe(A);
  });

  test('the database sees the same marketplace and runs it as the tenant role', async () => {
    const sql = tenantSql(tenantEm(orm, B));
    const [row] = await sql<{ m: string; who: string }>`select current_setting('hm.marketplace_id') as m, current_user as who where ${sql.marketplace}::uuid is not null`;
    expect(row).toEqual({ m: B, who: 'hm_app' });
  });

  test('refuses a statement that does not bind the marketplace, before it reaches the database', async () => {
    const sql = tenantSql(tenantEm(orm, A));
    // the table does not exist: a database error would mean the statement was sent
    await expect(sql`select * from no_such_table where id = ${A}`).rejects.toThrow(UnscopedSqlError);
    await expect(sql.query('update no_such_table set x = 1')).rejects.toThrow(/must scope by marketplace_id/);
  });

  test('refuses a marketplace taken from another handle', async () => {
    const mine = tenantSql(tenantEm(orm, A));
    const theirs = tenantSql(tenantEm(orm, B));
    await expect(mine`select ${theirs.marketplace}::uuid as m`).rejects.toThrow(/Another handle/);
  });

  test('the marketplace written into the SQL text instead of bound is an error, not an inlined value', () => {
    const sql = tenantSql(tenantEm(orm, A));
    expect(() => `select * from listings where marketplace_id = '${sql.marketplace}'`).toThrow(/must be bound as a parameter/);
  });

  test('needs an entity manager scoped to one marketplace', () => {
    expect(() => tenantSql(orm.em.fork())).toThrow(UnscopedSqlError);
    expect(() => tenantSql(crossTenantEm(orm))).toThrow(/tenantEm/);
  });
});

describe('crossTenantSql and jobSql', () => {
  test('cross-tenant SQL runs only on a cross-tenant entity manager', async () => {
    expect(() => crossTenantSql(tenantEm(orm, A))).toThrow(/crossTenantEm/);
    expect(() => crossTenantSql(orm.em.fork())).toThrow(UnscopedSqlError);
    const [row] = await crossTenantSql(crossTenantEm(orm))<{ n: number }>`select count(*)::int as n from marketplaces`;
    expect(row!.n).toBe(0);
  });

  test('job SQL needs a tenant or cross-tenant entity manager', () => {
    expect(() => jobSql(orm.em.fork())).toThrow(UnscopedSqlError);
    expect(() => jobSql(tenantEm(orm, A))).not.toThrow();
    expect(() => jobSql(crossTenantEm(orm))).not.toThrow();
  });
});
