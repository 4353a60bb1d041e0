import type { EntityManager } from '@hm/db/orm';
import { tenantSql } from '@hm/db/sql';

/** A category and every category under it, at any depth (the `category` filter of search). */
export async function categorySubtree(em: EntityManager, categoryId: string): Promise<string[]> {
  const sql = tenantSql(em);
  const rows = await sql<{ id: string }>`with recursive sub as (
       select id from categories where marketplace_id = ${sql.marketplace} and id = ${categoryId}
       union all select c.id from categories c join sub on c.parent_id = sub.id where c.marketplace_id = ${sql.marketplace})
     select id from sub`;
  return rows.map((r) => r.id);
}
