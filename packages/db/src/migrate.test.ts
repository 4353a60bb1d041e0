import { expect, inject, test } from 'vitest';
import { createOrm } from './orm.js';
import { migrate } from './migrate.js';
import { createTestDatabase } from './testing/index.js';

test('migrations: applied once, every tenant table carries marketplace_id, every unique index includes it, row-level security guards each', async () => {
  const orm = await createOrm(await createTestDatabase(inject('adminDatabaseUrl')));
  try {
    expect(await migrate(orm)).toEqual([]); // the template is migrated already: nothing pending
    const conn = orm.em.getConnection();
    const tables = await conn.execute<{ table_name: string }[]>(
      `select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' and table_name not like 'mikro_orm%' order by 1`,
    );
    const missing = [];
    for (const { table_name } of tables) {
      // the tenant itself, and the one deployment-wide table: which job runners are alive (no tenant data)
      if (table_name === 'marketplaces' || table_name === 'worker_heartbeats') continue;
      const cols = await conn.execute(`select 1 from information_schema.columns where table_name = ? and column_name = 'marketplace_id'`, [table_name]);
      if (cols.length === 0) missing.push(table_name);
    }
    expect(missing).toEqual([]);
    const uniques = await conn.execute<{ indexname: string; indexdef: string }[]>(
      `select indexname, indexdef from pg_indexes where schemaname = 'public' and indexdef like 'CREATE UNIQUE%' and tablename not in ('marketplaces') and tablename not like 'mikro_orm%'`,
    );
    const offending = uniques.filter((u) => !u.indexdef.includes('marketplace_id') && !u.indexname.endsWith('_pkey'));
    expect(offending).toEqual([]);
    // Row-level security, forced, on every table with marketplace_id (and on marketplaces, by id):
    // a table added later without `select hm_enable_tenant_rls('<table>')` fails here.
    const unprotected = await conn.execute<{ table_name: string }[]>(
      `select c.relname as table_name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind = 'r'
          and (c.relname = 'marketplaces' or exists (select from pg_attribute a where a.attrelid = c.oid and a.attname = 'marketplace_id' and not a.attisdropped))
          and not (c.relrowsecurity and c.relforcerowsecurity
                   and exists (select from pg_policies p where p.schemaname = 'public' and p.tablename = c.relname and p.policyname = 'tenant_isolation' and p.roles = '{hm_app}')
                   and exists (select from pg_policies p where p.schemaname = 'public' and p.tablename = c.relname and p.policyname = 'cross_tenant'))`,
    );
    expect(unprotected).toEqual([]);
    const [role] = await conn.execute<{ rolsuper: boolean; rolbypassrls: boolean; rolcanlogin: boolean }[]>(`select rolsuper, rolbypassrls, rolcanlogin from pg_roles where rolname = 'hm_app'`);
    expect(role).toEqual({ rolsuper: false, rolbypassrls: false, rolcanlogin: false });
    // migrated by a superuser: search's word and term filters keep their GIN indexes under row-level security
    const leakproof = await conn.execute<{ proname: string; proleakproof: boolean }[]>(
      `select proname, proleakproof from pg_proc where oid in ('pg_catalog.ts_match_vq(tsvector, tsquery)'::regprocedure, 'pg_catalog.arrayoverlap(anyarray, anyarray)'::regprocedure) order by 1`,
    );
    expect(leakproof).toEqual([
      { proname: 'arrayoverlap', proleakproof: true },
      { proname: 'ts_match_vq', proleakproof: true },
    ]);
    // hm_fold: the accent- and case-folding used by name search, safe to index
    const [fold] = await conn.execute<{ f: string }[]>(`select hm_fold('Ekström ÉCOLE') as f`);
    expect(fold!.f).toBe('ekstrom ecole');
  } finally {
    await orm.close(true);
  }
});

test('an up-to-date database costs one statement; any other state runs both migrators and records the new one', async () => {
  const orm = await createOrm(await createTestDatabase(inject('adminDatabaseUrl')));
  try {
    const conn = orm.em.getConnection();
    const proto = Object.getPrototypeOf(conn) as { execute: (...a: unknown[]) => unknown };
    const execute = proto.execute;
    let statements = 0;
    proto.execute = function (this: unknown, ...a: unknown[]) {
      statements++;
      return execute.apply(this, a);
    };
    const comment = async () => (await conn.execute<{ c: string }[]>(`select obj_description('mikro_orm_migrations'::regclass, 'pg_class') as c`))[0]!.c;
    try {
      expect(await migrate(orm)).toEqual([]);
      expect(statements).toBe(1);
      const state = await comment();
      expect(state).toMatch(/^ours=Migration\d{14}_\w+; graphile-worker=\d+\.\d+\.\d+$/);
      // what a database migrated by another version of the code (or by hand) looks like
      await conn.execute(`comment on table mikro_orm_migrations is 'ours=Migration20261101000000_older; graphile-worker=0.0.1'`);
      statements = 0;
      expect(await migrate(orm)).toEqual([]); // nothing of ours pending, but both migrators asked
      expect(statements).toBeGreaterThan(2);
      expect(await comment()).toBe(state);
      await conn.execute(`comment on table mikro_orm_migrations is null`);
      statements = 0;
      await migrate(orm);
      expect(statements).toBeGreaterThan(2);
    } finally {
      proto.execute = execute;
    }
  } finally {
    await orm.close(true);
  }
});
