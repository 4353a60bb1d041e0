import type { Localized } from '@hm/db/entities';
import type { EntityManager } from '@hm/db/orm';
import { tenantSql, type TenantSql } from '@hm/db/sql';

export interface TermRow {
  id: string;
  kind: string;
  slug: string;
  name: string;
  sort_name: string;
  descriptions: Localized;
}

/**
 * Terms of one kind with their name in `lang` (else the default language), and that name folded
 * (lower case, accents removed) for prefix matching and ordering.
 */
const terms = (sql: TenantSql, lang: string, dflt: string, kind: string) => ({
  text: `select t.id, t.kind, t.slug, t.descriptions, t.name, hm_fold(t.name) as sort_name
  from (select id, kind, slug, descriptions, coalesce(names->>?, names->>?, slug) as name
          from catalog_terms where marketplace_id = ? and kind = ?) t`,
  params: [lang, dflt, sql.marketplace, kind],
});

/** Every term of the kind used by a listing on sale, with how many, ordered by name. */
export function termsInUse(em: EntityManager, lang: string, dflt: string, kind: string) {
  const sql = tenantSql(em);
  const t = terms(sql, lang, dflt, kind);
  return sql.query<TermRow & { listing_count: number }>(
    `select t.*, u.n as listing_count from (${t.text}) t
       join (select term_id, count(*)::int as n from listings l, unnest(l.term_ids) term_id
              where l.marketplace_id = ? and l.on_sale group by term_id) u on u.term_id = t.id
      order by t.sort_name, t.id`,
    [...t.params, sql.marketplace],
  );
}

/** Terms of the kind ordered by folded name, those starting with `prefix` when given, after the keyset `(folded name, id)`. */
export function termsPage(em: EntityManager, lang: string, dflt: string, kind: string, opts: { prefix?: string; after?: [string, string]; limit: number }) {
  const sql = tenantSql(em);
  const t = terms(sql, lang, dflt, kind);
  const conditions: string[] = [];
  const params: unknown[] = [...t.params];
  if (opts.prefix) {
    conditions.push(`hm_fold(t.name) like hm_fold(?) || '%'`);
    params.push(opts.prefix.replace(/[\\%_]/g, (c) => `\\${c}`));
  }
  if (opts.after) {
    conditions.push(`(hm_fold(t.name), t.id) > (?, ?::uuid)`);
    params.push(...opts.after);
  }
  const where = conditions.length ? ` where ${conditions.join(' and ')}` : '';
  return sql.query<TermRow>(`${t.text}${where} order by 6, 1 limit ?`, [...params, opts.limit]);
}

/** One term of the kind by id or slug, with its name in `lang` and that name folded. */
async function oneTerm(em: EntityManager, lang: string, dflt: string, kind: string, by: 'id' | 'slug', value: string): Promise<TermRow | undefined> {
  const sql = tenantSql(em);
  const t = terms(sql, lang, dflt, kind);
  const [row] = await sql.query<TermRow>(`${t.text} where t.${by} = ?`, [...t.params, value]);
  return row;
}

/** A term of the kind by id (a page of terms after it starts at its folded name). */
export const termById = (em: EntityManager, lang: string, dflt: string, kind: string, id: string) => oneTerm(em, lang, dflt, kind, 'id', id);

export const termBySlug = (em: EntityManager, lang: string, dflt: string, kind: string, slug: string) => oneTerm(em, lang, dflt, kind, 'slug', slug);
