import type { EntityManager } from '@hm/db/orm';
import { tenantSql } from '@hm/db/sql';
import { SORTS } from '../listing-search/index.js';

/** A listing grid's rule (or the hero's "newest listing"), resolved to listing ids when the page is read. */
export interface GridRule {
  key: string;
  categoryId?: string;
  sort: 'newest' | 'price_asc' | 'price_desc' | 'popular';
  termIds: string[];
  limit: number;
}

/**
 * Every rule of a page in one statement (a UNION ALL of one ordered, limited select per rule), so a
 * page with many grids costs one round trip. A category means the category and its subcategories
 * (as search's `category`); terms match when the listing has any of them. Only listings on sale.
 */
export async function listingsByRules(em: EntityManager, rules: GridRule[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(rules.map((r) => [r.key, []]));
  if (rules.length === 0) return out;
  const sql = tenantSql(em);
  const parts: string[] = [];
  const params: unknown[] = [];
  rules.forEach((r, i) => {
    const where = ['l.marketplace_id = ?', 'l.on_sale'];
    params.push(r.key, i, sql.marketplace);
    if (r.categoryId) {
      where.push(`l.category_id in (with recursive sub as (select id from categories where marketplace_id = ? and id = ?::uuid
        union all select c.id from categories c join sub on c.parent_id = sub.id where c.marketplace_id = ?) select id from sub)`);
      params.push(sql.marketplace, r.categoryId, sql.marketplace);
    }
    if (r.termIds.length) {
      where.push('l.term_ids && ?::uuid[]');
      params.push(`{${r.termIds.join(',')}}`);
    }
    if (r.sort === 'price_asc' || r.sort === 'price_desc') where.push('l.price_base is not null');
    params.push(r.limit);
    parts.push(`(select ?::text as key, ?::int as n, l.id, row_number() over (order by ${SORTS[r.sort].order}) as pos from listings l where ${where.join(' and ')} order by ${SORTS[r.sort].order} limit ?)`);
  });
  const rows = await sql.query<{ key: string; id: string }>(`select key, id from (${parts.join(' union all ')}) g order by n, pos`, params);
  for (const row of rows) out.get(row.key)!.push(row.id);
  return out;
}
