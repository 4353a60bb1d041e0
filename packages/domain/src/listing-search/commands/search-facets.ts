// eslint-disable-next-line no-restricted-imports -- facet counts are assembled from the search's own filters and run through tenantSql
import type { tenantSql } from '@hm/db/sql';
import type { FieldError } from '../../core/errors.js';
import { minorDigits } from '../../core/money.js';

/**
 * Facet counts of GET /v1/listings (issue 28, `facets=category,term:<kind>,price`). Each facet counts
 * the listings matching every filter but its own (disjunctive: choosing a brand does not hide the
 * other brands' counts), so a count is the `total` the same query would have with that choice in
 * place of the facet's own. Exact while a facet's listings are at most EXACT_FACETS_UP_TO (read with
 * that LIMIT, so it costs at most that many rows); above, estimated from a repeatable page sample of
 * the listings on sale sized to hold FACET_SAMPLE_MATCHES of them (`facets_are_estimates`) — but for
 * the terms and categories the sample puts under SMALL_CHOICE, counted exactly when together they are
 * at most EXACT_SMALL_CHOICES listings: a rare brand is not shown as 0 (or 60) because the sample
 * missed (or hit) one of its few listings, and a count up to EXACT_FACETS_UP_TO is the `total` the
 * query would have with that choice.
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
/** A term or category the sample puts under this many listings is counted exactly (with the others so placed: EXACT_SMALL_CHOICES). */
const SMALL_CHOICE = 2 * EXACT_FACETS_UP_TO;
/** The most listings a facet's exact counts of its small choices may read together (their sampled sum); beyond, they stay estimates. */
const EXACT_SMALL_CHOICES = 100_000;
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
  const edges = roundEdges(opts.price.currency);
  const [cats, terms] = await Promise.all([
    opts.asked.includes('category') ? sql.query<{ id: string; slug: string; parent_id: string | null }>(`select id, slug, parent_id from categories where marketplace_id = ? order by position, slug`, [sql.marketplace]) : [],
    opts.asked.some((f) => f.startsWith('term:'))
      ? sql.query<{ id: string; slug: string; kind: string }>(`select id, slug, kind from catalog_terms where marketplace_id = ? and kind = any(?::text[]) order by slug`, [
          sql.marketplace,
          `{${opts.asked.filter((f) => f.startsWith('term:')).map((f) => `"${f.slice(5).replace(/["\\]/g, '\\$&')}"`).join(',')}}`,
        ])
      : [],
  ]);

  // Facets whose own filter is not in the query share one set of listings (every filter): they are
  // counted together, in one pass over it; a facet whose filter is in the query has its own set.
  const present = new Set(opts.filters.flatMap((f) => (f.facet ? [f.facet] : [])));
  const groups = new Map<string, string[]>();
  for (const f of opts.asked) {
    const key = present.has(f) ? f : '';
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  const counts = new Map<string, Map<string, number>>(); // facet → value → count
  for (const [left, asked] of groups) {
    const own = [...(opts.words ? [opts.words] : []), ...opts.filters.filter((f) => !left || f.facet !== left)];
    const conds = [`l.marketplace_id = ?`, `l.on_sale`, ...own.map((f) => f.sql)].join(' and ');
    const condParams = [sql.marketplace, ...own.flatMap((f) => f.params)];
    // the columns the facets need, then one branch per facet over them: rows (facet, value, n)
    const kinds = asked.filter((f) => f.startsWith('term:')).map((f) => f.slice(5));
    const columns = `l.category_id as c, l.term_ids as t, (${opts.price.sql})::bigint as p`;
    const branches: { sql: string; params: unknown[] }[] = [];
    if (asked.includes('category')) branches.push({ sql: `select 'category' as f, s.c::text as g, count(*)::int as n from s where s.c is not null group by 2`, params: [] });
    if (asked.includes('price')) branches.push({ sql: `select 'price', width_bucket(s.p, ?::bigint[])::text, count(*)::int from s where s.p is not null group by 2`, params: [`{${edges.join(',')}}`] });
    if (kinds.length) {
      const ids = terms.filter((t) => kinds.includes(t.kind)).map((t) => t.id);
      branches.push({ sql: `select 'term', x::text, count(*)::int from s, unnest(s.t) x where x = any(?::uuid[]) group by 2`, params: [`{${ids.join(',')}}`] });
    }
    const outer = branches.map((b) => `(${b.sql})`).join(' union all ');
    const outerParams = branches.flatMap((b) => b.params);
    const read = (rows: { f: string; g: string; n: number }[], scale = 1) => {
      for (const r of rows) {
        if (r.f === ROWS) continue;
        const facet = r.f === 'term' ? `term:${terms.find((t) => t.id === r.g)?.kind}` : r.f;
        counts.set(facet, (counts.get(facet) ?? new Map<string, number>()).set(r.g, Math.round(r.n * scale)));
      }
    };
    // its set holds the query's matches: when they are more than EXACT_FACETS_UP_TO, it is not read capped first
    if (opts.total.total <= EXACT_FACETS_UP_TO) {
      const capped = await sql.query<{ f: string; g: string; n: number }>(
        `with s as materialized (select ${columns} from listings l where ${conds} limit ${EXACT_FACETS_UP_TO + 1})
         select '${ROWS}' as f, null as g, count(*)::int as n from s union all ${outer}`,
        [...opts.price.params, ...condParams, ...outerParams],
      );
      if (capped.find((r) => r.f === ROWS)!.n <= EXACT_FACETS_UP_TO) {
        read(capped);
        continue;
      }
    }
    // how many listings the set holds: at least the query's matches, else the planner's guess (no rows read)
    const [plan] = left ? await sql.query<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>(`explain (format json) select 1 from listings l where ${conds}`, condParams) : [];
    const size = Math.max(opts.total.total, plan?.['QUERY PLAN'][0].Plan['Plan Rows'] ?? 0, EXACT_FACETS_UP_TO + 1);
    const percent = (100 * FACET_SAMPLE_MATCHES) / size;
    if (percent >= 50) {
      read(await sql.query(`with s as materialized (select ${columns} from listings l where ${conds}) ${outer}`, [...opts.price.params, ...condParams, ...outerParams]));
      continue;
    }
    estimates = true;
    // one pass over the sampled pages: every listing on sale there counted (the scale), the set's own counted by facet
    // (a row outside the set keeps only its `m`: the columns are read for the set's rows alone)
    const matching = own.length ? own.map((f) => f.sql).join(' and ') : 'true';
    const sampled = await sql.query<{ f: string; g: string; n: number }>(
      `with a as materialized (select x.m, y.* from listings l tablesample system (?) repeatable (0)
            cross join lateral (select coalesce(${matching}, false) as m) x
            left join lateral (select ${columns} where x.m) y on true
          where l.marketplace_id = ? and l.on_sale),
       s as (select * from a where m)
       select '${ROWS}' as f, null as g, count(*)::int as n from a union all ${outer}`,
      [percent, ...own.flatMap((f) => f.params), ...opts.price.params, sql.marketplace, ...outerParams],
    );
    read(sampled, opts.onSale / Math.max(sampled.find((r) => r.f === ROWS)!.n, 1));
    // the small choices counted exactly, each facet's in one statement (the listings with those choices among the set's)
    const exact: { facet: string; sql: string; ids: string[] }[] = [];
    const small = (facet: string, ids: string[]) => {
      const found = counts.get(facet) ?? new Map<string, number>();
      const under = ids.filter((id) => (found.get(id) ?? 0) < SMALL_CHOICE);
      if (under.length && under.reduce((a, id) => a + (found.get(id) ?? 0), 0) <= EXACT_SMALL_CHOICES) return under;
      return [];
    };
    if (asked.includes('category')) {
      const ids = small('category', cats.map((c) => c.id));
      if (ids.length) exact.push({ facet: 'category', ids, sql: `select l.category_id::text as g, count(*)::int as n from listings l where ${conds} and l.category_id = any(?::uuid[]) group by 1` });
    }
    for (const kind of kinds) {
      const ids = small(`term:${kind}`, terms.filter((t) => t.kind === kind).map((t) => t.id));
      if (ids.length) exact.push({ facet: `term:${kind}`, ids, sql: `select x::text as g, count(*)::int as n from listings l, unnest(l.term_ids) x where ${conds} and l.term_ids && ?::uuid[] and x = any(?::uuid[]) group by 1` });
    }
    for (const e of exact) {
      const list = `{${e.ids.join(',')}}`;
      const rows = await sql.query<{ g: string; n: number }>(e.sql, [...condParams, list, ...(e.facet === 'category' ? [] : [list])]);
      const found = counts.get(e.facet) ?? new Map<string, number>();
      for (const id of e.ids) {
        const n = rows.find((r) => r.g === id)?.n ?? 0;
        if (n > 0) found.set(id, n);
        else found.delete(id); // none: left out, as an exact count leaves it
      }
      counts.set(e.facet, found);
    }
  }

  for (const facet of opts.asked) {
    const found = counts.get(facet) ?? new Map<string, number>();
    if (facet === 'category') {
      const parent = new Map(cats.map((c) => [c.id, c.parent_id]));
      const subtree = new Map<string, number>();
      // each listing counts for its category and every one above it (the `category` filter takes the subtree)
      for (const [id, n] of found) for (let at: string | null | undefined = id, depth = 0; at && depth < 100; at = parent.get(at), depth++) subtree.set(at, (subtree.get(at) ?? 0) + n);
      facets.categories = cats.filter((c) => subtree.has(c.id)).map((c) => ({ id: c.id, slug: c.slug, count: subtree.get(c.id)! }));
    } else if (facet === 'price') {
      facets.price = priceBuckets(new Map([...found].map(([k, v]) => [Number(k), v])), edges);
    } else {
      const kind = facet.slice(5);
      facets.terms = { ...facets.terms, [kind]: terms.filter((t) => t.kind === kind && found.get(t.id)).map((t) => ({ id: t.id, slug: t.slug, count: found.get(t.id)! })) };
    }
  }
  return { facets, estimates };
}
