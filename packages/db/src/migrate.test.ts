import { expect, inject, test } from 'vitest';
import { createOrm } from './orm.js';
import { migrate } from './migrate.js';
import { createTestDatabase } from './testing/index.js';

test('migrations: applied once, every tenant table carries marketplace_id and every unique index includes it', async () => {
  const orm = await createOrm(await createTestDatabase(inject('adminDatabaseUrl')));
  try {
    expect(await migrate(orm)).toEqual([]); // the template is migrated already: nothing pending
    const conn = orm.em.getConnection();
    const tables = await conn.execute<{ table_name: string }[]>(
      `select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' and table_name not like 'mikro_orm%' order by 1`,
    );
    const missing = [];
    for (const { table_name } of tables) {
      if (table_name === 'marketplaces') continue;
      const cols = await conn.execute(`select 1 from information_schema.columns where table_name = ? and column_name = 'marketplace_id'`, [table_name]);
      if (cols.length === 0) missing.push(table_name);
    }
    expect(missing).toEqual([]);
    const uniques = await conn.execute<{ indexname: string; indexdef: string }[]>(
      `select indexname, indexdef from pg_indexes where schemaname = 'public' and indexdef like 'CREATE UNIQUE%' and tablename not in ('marketplaces') and tablename not like 'mikro_orm%'`,
    );
    const offending = uniques.filter((u) => !u.indexdef.includes('marketplace_id') && !u.indexname.endsWith('_pkey'));
    expect(offending).toEqual([]);
    // hm_fold: the accent- and case-folding used by name search, safe to index
    const [fold] = await conn.execute<{ f: string }[]>(`select hm_fold('Ekström ÉCOLE') as f`);
    expect(fold!.f).toBe('ekstrom ecole');
  } finally {
    await orm.close(true);
  }
});
