import { CatalogTermSchema } from '@hm/db/entities';
// eslint-disable-next-line no-restricted-imports -- search assembles its statement from the request's filters here; it runs through tenantSql
import { tenantSql } from '@hm/db/sql';
import type { CommandContext } from '../../context.js';
import { ValidationError, type FieldError } from '../../errors.js';
import { keyset, type KeyType } from '../../shared/keyset.js';
import type { RateBook } from '../../rates/rate-book.js';
import type { SearchInput } from '../listing-search.schema.js';
import { categorySubtree } from '../search-listings.queries.js';

type Sort = 'relevance' | 'newest' | 'price_asc' | 'price_desc' | 'popular';

/** Each sort: the ORDER BY, the key columns it pages on (compared as one row value), and their SQL types. */
export const SORTS: Record<Sort, { order: string; key: string[]; cmp: '<' | '>'; types: KeyType[] }> = {
  newest: { order: 'l.published_at desc, l.id desc', key: ['l.published_at', 'l.id'], cmp: '<', types: ['timestamptz', 'uuid'] },
  relevance: { order: 'tier desc, l.published_at desc, l.id desc', key: ['tier', 'l.published_at', 'l.id'], cmp: '<', types: ['int', 'timestamptz', 'uuid'] },
  price_asc: { order: 'l.price_base asc, l.id asc', key: ['l.price_base', 'l.id'], cmp: '>', types: ['bigint', 'uuid'] },
  price_desc: { order: 'l.price_base desc, l.id desc', key: ['l.price_base', 'l.id'], cmp: '<', types: ['bigint', 'uuid'] },
  popular: { order: 'l.favorite_count desc, l.id desc', key: ['l.favorite_count', 'l.id'], cmp: '<', types: ['int', 'uuid'] },
};

/** `to_tsquery` text of the words of q, folded like the index (hm_fold), each a prefix; `weights` limits to title (A) or title and terms (AB). */
const tsquery = (weights = '') =>
  `(select to_tsquery('simple', string_agg(quote_literal(w) || ':*${weights}', ' & ')) from regexp_split_to_table(hm_fold(?::text), '[^[:alnum:]]+') w where w <> '')`;

export interface SearchResult {
  ids: string[];
  total: number;
  nextCursor?: string;
}

/**
 * GET /v1/listings. Filters and sort are one SQL statement over the partial shop indexes; the page
 * is keyset-paged on the sort key plus id (stable while listings are added), and `total` counts
 * the same filters. Prices compare in the default currency (`price_base`, kept by reprice-listings).
 */
export async function searchListings(ctx: CommandContext, input: SearchInput, rates: RateBook): Promise<SearchResult> {
  const errors: FieldError[] = [];
  // The statement is assembled here (filters, sort, keyset) and runs through the tenant SQL handle.
  // on_sale: the listing column every shop index is partial on (published, in stock, seller not blocked)
  const scoped = tenantSql(ctx.em);
  const where: string[] = [`l.marketplace_id = ?`, `l.on_sale`];
  const params: unknown[] = [scoped.marketplace];
  const filter = (sql: string, ...values: unknown[]) => {
    where.push(sql);
    params.push(...values);
  };
  const words = input.q?.trim() ? input.q : undefined;
  const hasWords = words !== undefined && /[\p{L}\p{N}]/u.test(words);
  let sort: Sort = input.sort ?? (hasWords ? 'relevance' : 'newest');
  if (sort === 'relevance' && !hasWords) sort = 'newest'; // nothing to be relevant to

  if (hasWords) {
    filter(`l.search_doc @@ ${tsquery()}`, words);
  }
  if (input.category) {
    const categories = await categorySubtree(ctx.em, input.category);
    if (categories.length === 0) errors.push({ location: 'category', message: 'No such category in this marketplace.', value: input.category });
    filter(`l.category_id = any(?::uuid[])`, `{${categories.join(',')}}`);
  }
  if (input.term.length) {
    const terms = await ctx.em.find(CatalogTermSchema, { id: { $in: input.term } });
    const byKind = new Map<string, string[]>();
    for (const [i, id] of input.term.entries()) {
      const t = terms.find((x) => x.id === id);
      if (!t) errors.push({ location: `term.${i}`, message: 'No such catalogue term in this marketplace.', value: id });
      else byKind.set(t.kind, [...(byKind.get(t.kind) ?? []), id]);
    }
    for (const ids of byKind.values()) filter(`l.term_ids && ?::uuid[]`, `{${ids.join(',')}}`);
  }
  if (input.seller) filter(`l.seller_id = ?`, input.seller);
  if (input.attr.length) {
    const byKey = new Map<string, string[]>();
    for (const a of input.attr) {
      const at = a.indexOf(':');
      byKey.set(a.slice(0, at), [...(byKey.get(a.slice(0, at)) ?? []), a.slice(at + 1)]);
    }
    for (const [key, values] of byKey) filter(`(l.attributes ->> ?) = any(?::text[])`, key, `{${values.map((v) => `"${v.replace(/["\\]/g, '\\$&')}"`).join(',')}}`);
  }
  const priceCurrency = input.currency ?? ctx.marketplace.currencies[0];
  for (const [name, op] of [
    ['min_price', '>='],
    ['max_price', '<='],
  ] as const) {
    const v = input[name];
    if (v === undefined) continue;
    const base = priceCurrency ? rates.convert(v, priceCurrency, rates.defaultCurrency) : undefined;
    if (base === undefined) {
      errors.push({ location: name, message: `No exchange rate from ${priceCurrency} to ${rates.defaultCurrency} for today.`, value: v });
      continue;
    }
    filter(`l.price_base ${op} ?`, base);
  }
  if (input.min_price !== undefined && input.max_price !== undefined && input.min_price > input.max_price) {
    errors.push({ location: 'max_price', message: 'Must be at least min_price.', value: input.max_price });
  }
  // what the caller asked to narrow (the sort's own condition below is not a filter)
  const filtered = where.length > 2;
  const priceSort = sort === 'price_asc' || sort === 'price_desc';
  if (priceSort) where.push('l.price_base is not null');

  const s = SORTS[sort];
  const fingerprint = JSON.stringify({ m: ctx.marketplace.id, sort, q: hasWords ? words : null, c: input.category, t: [...input.term].sort(), s: input.seller, a: [...input.attr].sort(), min: input.min_price, max: input.max_price, cur: priceCurrency });
  const pages = keyset(fingerprint, s.types);
  const after = pages.after(input.cursor, errors);
  if (errors.length) throw new ValidationError(errors);

  // relevance tier: all words in the title (3), in title and term names (2), else (1, the description helped)
  const tierSql = hasWords ? `(case when l.search_doc @@ ${tsquery('A')} then 3 when l.search_doc @@ ${tsquery('AB')} then 2 else 1 end)` : '0';
  const tierParams = hasWords ? [words, words] : [];
  const keyExprs = s.key.map((k) => (k === 'tier' ? tierSql : k));
  const keyParams = s.key.flatMap((k) => (k === 'tier' ? tierParams : []));
  const pageWhere = after ? [...where, `(${keyExprs.join(', ')}) ${s.cmp} (${s.types.map((t) => `?::${t}`).join(', ')})`] : where;
  const pageSql = `select l.id, ${keyExprs.map((e, i) => `${e} as k${i}`).join(', ')} from listings l where ${pageWhere.join(' and ')}
    order by ${s.order.replace('tier', 'k0')} limit ?`;
  const pageParams = [...keyParams, ...params, ...(after ? [...keyParams, ...after] : []), input.limit + 1];
  // Unfiltered, the total is the marketplace's on-sale count (kept by a trigger) — for price sorts less
  // the few without a comparable price (a small partial index); otherwise a count of the matches.
  const count = filtered
    ? { sql: `select count(*)::int as total from listings l where ${where.join(' and ')}`, params }
    : {
        sql: `select (coalesce((select on_sale from shop_counts where marketplace_id = ?), 0)${
          priceSort ? ` - (select count(*) from listings l where l.marketplace_id = ? and l.on_sale and l.price_base is null)` : ''
        })::int as total`,
        params: priceSort ? [scoped.marketplace, scoped.marketplace] : [scoped.marketplace],
      };
  const [rows, counted] = await Promise.all([
    scoped.query<Record<string, unknown>>(pageSql, pageParams),
    scoped.query<{ total: number }>(count.sql, count.params),
  ]);
  const { items: page, nextCursor } = pages.page(rows, input.limit, (r) => s.key.map((_k, i) => r[`k${i}`]));
  return { ids: page.map((r) => String(r.id)), total: counted[0]!.total, ...(nextCursor ? { nextCursor } : {}) };
}

