import type { EntityManager } from '@hm/db/orm';
import { tenantSql } from '@hm/db/sql';

export interface CategoryRow {
  id: string;
  slug: string;
  names: Record<string, string>;
  parentId: string | null;
  position: number;
}

/**
 * The marketplace's categories as plain rows, siblings by position then slug, through the request's
 * tenant handle (its transaction, row-level security): a read that changes nothing needs none of
 * the ORM's query building, hydration and identity map (most of this read's CPU, bench/results).
 */
export async function categoryRows(em: EntityManager): Promise<CategoryRow[]> {
  const sql = tenantSql(em);
  return sql<CategoryRow>`select id, slug, names, parent_id as "parentId", position from categories where marketplace_id = ${sql.marketplace} order by position, slug`;
}
