// eslint-disable-next-line no-restricted-imports -- facet counts are assembled from the search's own filters and run through tenantSql
import type { tenantSql } from '@hm/db/sql';
import type { FieldError } from '../../errors.js';
import { minorDigits } from '../../shared/money.js';

/**
 * Facet counts of GET /v1/listings (issue 28, `facets=category,term:<kind>,price`). Each facet counts
 * the listings matching every filter but its own (disjunctive: choosing a brand does not hide the
 * other brands' counts), so a count is the `total` the same query would have with that choice in
 * place of the facet's own. Exact while a facet's listings are at most EXACT_FACETS_UP_TO (read with
 * that LIMIT, so it costs at most that many rows); above, estimated from a repeatable page sample of
 * the listings on sale sized to hold FACET_SAMPLE_MATCHES of them (`facets_are_estimates`).
 */
export interface Facets {
  categories?: { id: string; slug: string; count: number }[];
  terms?: Record<string, { id: string; slug: string; count: number }[]>;
  price?: { from?: number; to?: number; count: number }[];
}

/** A search filter as facets see it; `facet` names the facet it belongs to (`category`, `term:<kind>`, `price`). */
export interface FacetFilter {
  sql: string;
  params: unknown[];
  facet?: string;
}

export const EXACT_FACETS_UP_TO = 10_000;
/**
 * Listings of a facet's base a sample holds: a choice with more than EXACT_FACETS_UP_TO listings that
 * holds a tenth of the base then rests on ≥ 1 600 sampled listings (relative standard error ≤ 2.5 %:
 * ±5 % at two of them); larger choices on more.
 */
const FACET_SAMPLE_MATCHES = 16_000;
/** At most this many price buckets, on round edges. */
const PRICE_BUCKETS = 6;
/** The capped statement's row counting its base (no group value looks like it). */
const ROWS = '*rows';

/** `facets` parsed: `category`, `price`, `term:<kind>` (a kind of the marketplace), comma-separated, each once. */
export function parseFacets(text: string | undefined, termKinds: string[], errors: FieldError[]): string[] {
  if (text === undefined || text.trim() === '') return [];
  const out: string[] = [];
  for (const raw of text.split(',')) {
    const f = raw.trim();
    if (f === 'category' || f === 'price' || (f.startsWith('term:') && termKinds.includes(f.slice(5)))) {
      if (!out.includes(f)) out.push(f);
    } else {
      errors.push({ location: 'facets', message: `Unknown facet "${f}": use category, price or term:<kind> with a kind of the marketplace (${termKinds.join(', ')}).`, value: text });
    }
  }
  return out;
}

/** Round price edges in minor units of `currency`: 1, 2, 5, 10, 20, 50 … major units. */
function roundEdges(currency: string): bigint[] {
  const unit = 10n ** BigInt(minorDigits(currency));
  const out: bigint[] = [];
  for (let p = 1n; p <= 10n ** 9n; p *= 10n) for (const m of [1n, 2n, 5n]) out.push(m * p * unit);
  return out;
}

/** Fine buckets (index 0: under edges[0]; i: edges[i-1] up to edges[i]) merged into at most PRICE_BUCKETS of about equal counts, open at both ends. */
function priceBuckets(counts: Map<number, number>, edges: bigint[]): NonNullable<Facets['price']> {
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  if (total === 0) return [];
  const out: { from?: number; to?: number; count: number }[] = [];
  let acc = 0;
  let from: number | undefined;
  const last = Math.max(...counts.keys());
  for (let i = Math.min(...counts.keys()); i <= last; i++) {
    acc += counts.get(i) ?? 0;
    const remaining = PRICE_BUCKETS - out.length;
    if (i < last && remaining > 1 && acc >= (total - out.reduce((a, b) => a + b.count, 0)) / remaining) {
      const to = Number(edges[i]!);
      out.push({ ...(from !== undefined ? { from } : {}), to, count: acc });
      from = to;
      acc = 0;
    }
  }
  out.push({ ...(from !== undefined ? { from } : {}), count: acc });
  return out;
}

export async function countFacets(
  sql: ReturnType<typeof tenantSql>,
  opts: {
    asked: string[];
    filters: FacetFilter[];
    words?: { sql: string; params: unknown[] };
    total: { total: number; estimate: boolean };
    /** prices in this currency, as `display_price` shows them */
    price: { sql: string; params: unknown[]; currency: string };
    onSale: number;
  },
): Promise<{ facets: Facets; estimates: boolean }> {
  const facets: Facets = {};
  let estimates = false;
  // one facet's counts by group value: capped (exact), or from a sample when more listings than that are in its base;
  // `outer` turns the base's rows `s(g)` into (g, n) rows: by default g itself
  const count = async (facet: string, group: { select: string; params: unknown[] }, outer = { sql: `select s.g::text as g, count(*)::int as n from s where s.g is not null group by 1`, params: [] as unknown[] }): Promise<Map<string, number>> => {
    const own = [...(opts.words ? [opts.words] : []), ...opts.filters.filter((f) => f.facet !== facet)];
    const conds = [`l.marketplace_id = ?`, `l.on_sale`, ...own.map((f) => f.sql)].join(' and ');
    const condParams = [sql.marketplace, ...own.flatMap((f) => f.params)];
    const rows = (r: { g: string; n: number }[]) => new Map(r.filter((x) => x.g !== ROWS).map((x) => [x.g, x.n]));
    const capped = await sql.query<{ g: string; n: number }>(
      `with s as materialized (select ${group.select} as g from listings l where ${conds} limit ${EXACT_FACETS_UP_TO + 1})
       select '${ROWS}' as g, count(*)::int as n from s union all (${outer.sql})`,
      [...group.params, ...condParams, ...outer.params],
    );
    if (capped.find((r) => r.g === ROWS)!.n <= EXACT_FACETS_UP_TO) return rows(capped);
    const percent = (100 * FACET_SAMPLE_MATCHES) / Math.max(opts.total.total, EXACT_FACETS_UP_TO + 1);
    if (percent >= 50) {
      return rows(await sql.query(`with s as (select ${group.select} as g from listings l where ${conds}) ${outer.sql}`, [...group.params, ...condParams, ...outer.params]));
    }
    estimates = true;
    const [looked] = await sql.query<{ n: number }>(`select count(*)::int as n from listings l tablesample system (?) repeatable (0) where l.marketplace_id = ? and l.on_sale`, [percent, sql.marketplace]);
    const sampled = rows(
      await sql.query(`with s as (select ${group.select} as g from listings l tablesample system (?) repeatable (0) where ${conds}) ${outer.sql}`, [...group.params, percent, ...condParams, ...outer.params]),
    );
    const scale = opts.onSale / Math.max(looked!.n, 1);
    return new Map([...sampled].map(([g, n]) => [g, Math.round(n * scale)]));
  };

  for (const facet of opts.asked) {
    if (facet === 'category') {
      const direct = await count('category', { select: 'l.category_id', params: [] });
      const cats = await sql.query<{ id: string; slug: string; parent_id: string | null }>(`select id, slug, parent_id from categories where marketplace_id = ? order by position, slug`, [sql.marketplace]);
      const parent = new Map(cats.map((c) => [c.id, c.parent_id]));
      const subtree = new Map<string, number>();
      // each listing counts for its category and every one above it (the `category` filter takes the subtree)
      for (const [id, n] of direct) for (let at: string | null | undefined = id, depth = 0; at && depth < 100; at = parent.get(at), depth++) subtree.set(at, (subtree.get(at) ?? 0) + n);
      facets.categories = cats.filter((c) => subtree.has(c.id)).map((c) => ({ id: c.id, slug: c.slug, count: subtree.get(c.id)! }));
    } else if (facet === 'price') {
      const edges = roundEdges(opts.price.currency);
      const fine = await count('price', { select: `width_bucket((${opts.price.sql})::bigint, ?::bigint[])`, params: [...opts.price.params, `{${edges.join(',')}}`] });
      facets.price = priceBuckets(new Map([...fine].map(([k, v]) => [Number(k), v])), edges);
    } else {
      const kind = facet.slice(5);
      const terms = await sql.query<{ id: string; slug: string }>(`select id, slug from catalog_terms where marketplace_id = ? and kind = ? order by slug`, [sql.marketplace, kind]);
      const counts = await count(facet, { select: 'l.term_ids', params: [] }, { sql: `select t::text as g, count(*)::int as n from s, unnest(s.g) t where t = any(?::uuid[]) group by 1`, params: [`{${terms.map((t) => t.id).join(',')}}`] });
      facets.terms = { ...facets.terms, [kind]: terms.flatMap((t) => (counts.get(t.id) ? [{ id: t.id, slug: t.slug, count: counts.get(t.id)! }] : [])) };
    }
  }
  return { facets, estimates };
}
