import type { EntityManager } from '@hm/db/orm';
import { tenantSql } from '@hm/db/sql';

/** Whether the category is one of this marketplace's (the `category` filter of search; its subtree is each listing's `category_path`). */
export async function categoryExists(em: EntityManager, categoryId: string): Promise<boolean> {
  const sql = tenantSql(em);
  const rows = await sql<{ id: string }>`select id from categories where marketplace_id = ${sql.marketplace} and id = ${categoryId}`;
  return rows.length > 0;
}
