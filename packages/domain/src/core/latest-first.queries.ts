import type { EntityManager } from '@hm/db/orm';
import { tenantSql } from '@hm/db/sql';

type Row = Record<string, unknown>;

/** One filter of a plain-SQL page: a clause with `?` placeholders, then its values. */
export type RowFilter = [clause: string, ...values: unknown[]];

/**
 * One keyset page of a tenant table as plain rows (the back office's list pages): the marketplace's
 * rows matching every filter, after `after` (the cursor's key) when given, `limit` of them, latest
 * first on (`column`, id) — the order and the `$or` the ORM's find was given for these pages. One
 * statement, no query building, hydrating, registering or snapshotting of entities. The table is
 * `t` in the statement; `join` adds columns from joined tables (filters then name `t.` columns).
 */
export function latestFirstRows(
  em: EntityManager,
  table: string,
  column: string,
  filters: RowFilter[],
  after: [Date, string] | undefined,
  limit: number,
  join?: { columns: string; tables: string },
): Promise<Row[]> {
  const sql = tenantSql(em);
  const where: string[] = ['t.marketplace_id = ?'];
  const params: unknown[] = [sql.marketplace];
  for (const [clause, ...values] of filters) {
    where.push(clause);
    params.push(...values);
  }
  if (after) {
    where.push(`(t.${column} < ? or (t.${column} = ? and t.id < ?))`);
    params.push(after[0], after[0], after[1]);
  }
  const from = join ? `t.*, ${join.columns} from ${table} t ${join.tables}` : `t.* from ${table} t`;
  return sql.query(`select ${from} where ${where.join(' and ')} order by t.${column} desc, t.id desc limit ?`, [...params, limit]);
}
