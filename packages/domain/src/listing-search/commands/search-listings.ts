import { CatalogTermSchema } from '@hm/db/entities';
// eslint-disable-next-line no-restricted-imports -- search assembles its statement from the request's filters here; it runs through tenantSql
import { tenantSql } from '@hm/db/sql';
import type { CommandContext } from '../../core/context.js';
import { ValidationError, type FieldError } from '../../core/errors.js';
import { keyset, type KeyType } from '../../core/keyset.js';
import type { RateBook } from '../../rates/index.js';
import type { SearchInput } from '../listing-search.schema.js';
import { categoryExists } from '../search-listings.queries.js';
import { searchWords, tsqueryText, type SearchWord } from '../search-words.js';
import { keptEstimate } from '../kept-estimates.js';
import { countMatches, onSaleCount, type Total } from './count-matches.js';
import { countFacets, parseFacets, type Facets } from './search-facets.js';
import { conditions, withWordsAs, type Filter } from './search-filters.js';
import { suggest } from './suggest.js';

type Sort = 'relevance' | 'newest' | 'price_asc' | 'price_desc' | 'popular';

/** Each sort: the ORDER BY, the key columns it pages on (compared as one row value), and their SQL types. */
export const SORTS: Record<Sort, { order: string; key: string[]; cmp: '<' | '>'; types: KeyType[] }> = {
  newest: { order: 'l.published_at desc, l.id desc', key: ['l.published_at', 'l.id'], cmp: '<', types: ['timestamptz', 'uuid'] },
  relevance: { order: 'tier desc, l.published_at desc, l.id desc', key: ['tier', 'l.published_at', 'l.id'], cmp: '<', types: ['int', 'timestamptz', 'uuid'] },
  price_asc: { order: 'l.price_base asc, l.id asc', key: ['l.price_base', 'l.id'], cmp: '>', types: ['bigint', 'uuid'] },
  price_desc: { order: 'l.price_base desc, l.id desc', key: ['l.price_base', 'l.id'], cmp: '<', types: ['bigint', 'uuid'] },
  popular: { order: 'l.favorite_count desc, l.id desc', key: ['l.favorite_count', 'l.id'], cmp: '<', types: ['int', 'uuid'] },
};

/** A `to_tsquery` text (built by tsqueryText) as a constant: with the value bound the planner folds it and its statistics say how many listings match. */
const tsconst = `to_tsquery('simple', ?::text)`;
/** The same, opaque to the planner (where a weight matters its statistics do not know weights, and counting: see countTotal). */
const tsopaque = `(select to_tsquery('simple', ?::text))`;

export interface SearchResult {
  ids: string[];
  total: number;
  /** `total` is an estimate (more than EXACT_TOTAL_UP_TO matches) */
  totalIsEstimate?: true;
  nextCursor?: string;
  /** nothing matched: the closest query from the marketplace's vocabulary that finds something */
  didYouMean?: string;
  facets?: Facets;
  facetsAreEstimates?: true;
}

/**
 * A listing's price in `currency` as `display_price` shows it (SQL over `l`): each listing currency's
 * exact rate to it, rounded half away from zero (`hm_round_div`, as core/money.ts); null without a rate.
 */
function displayedIn(currency: string, listingCurrencies: readonly string[], rates: RateBook): { sql: string; params: unknown[] } {
  const whens = listingCurrencies.flatMap((c) => {
    const r = rates.minorRate(c, currency);
    return r ? [{ sql: `when ? then hm_round_div(l.price_amount * ?::numeric, ?::numeric)`, params: [c, r.num.toString(), r.den.toString()] }] : [];
  });
  if (whens.length === 0) return { sql: 'null::bigint', params: [] };
  return { sql: `(case l.price_currency ${whens.map((w) => w.sql).join(' ')} end)`, params: whens.flatMap((w) => w.params) };
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
  const filters: Filter[] = [];
  const filter = (name: Filter['name'], sql: string, ...values: unknown[]) => void filters.push({ name, sql, params: values });
  const facetFilter = (name: Filter['name'], facet: string, sql: string, ...values: unknown[]) => void filters.push({ name, sql, params: values, facet });
  const words = input.q?.trim() ? input.q : undefined;
  const hasWords = words !== undefined && /[\p{L}\p{N}]/u.test(words);
  let sort: Sort = input.sort ?? (hasWords ? 'relevance' : 'newest');
  if (sort === 'relevance' && !hasWords) sort = 'newest'; // nothing to be relevant to

  // the words: the title tiers leave them out (a title match is a match), the count swaps them for the opaque form;
  // each word with its infix and typo matches (one lookup in the marketplace's vocabulary)
  const qWords: SearchWord[] = hasWords ? await searchWords(scoped, words) : [];
  const loose = qWords.some((w) => w.more.length > 0);
  const strictQ = tsqueryText(qWords, false);
  const looseQ = tsqueryText(qWords, true);
  if (hasWords) filter('words', `l.search_doc @@ ${tsconst}`, looseQ);
  if (input.category) {
    if (!(await categoryExists(ctx.em, input.category))) errors.push({ location: 'category', message: 'No such category in this marketplace.', value: input.category });
    // the category and its subcategories: the listings with it in their path (one search of the category + terms index)
    facetFilter('category', 'category', `l.category_path && ?::uuid[]`, `{${input.category}}`);
  }
  let termsByKind: string[][] = [];
  if (input.term.length) {
    const terms = await ctx.em.find(CatalogTermSchema, { id: { $in: input.term } });
    const byKind = new Map<string, string[]>();
    for (const [i, id] of input.term.entries()) {
      const t = terms.find((x) => x.id === id);
      if (!t) errors.push({ location: `term.${i}`, message: 'No such catalogue term in this marketplace.', value: id });
      else byKind.set(t.kind, [...(byKind.get(t.kind) ?? []), id]);
    }
    for (const [kind, ids] of byKind) facetFilter('term', `term:${kind}`, `l.term_ids && ?::uuid[]`, `{${ids.join(',')}}`);
    termsByKind = [...byKind.values()];
  }
  if (input.seller) filter('seller', `l.seller_id = ?`, input.seller);
  if (input.attr.length) {
    const byKey = new Map<string, string[]>();
    for (const a of input.attr) {
      const at = a.indexOf(':');
      byKey.set(a.slice(0, at), [...(byKey.get(a.slice(0, at)) ?? []), a.slice(at + 1)]);
    }
    for (const [key, values] of byKey) filter('attr', `(l.attributes ->> ?) = any(?::text[])`, key, `{${values.map((v) => `"${v.replace(/["\\]/g, '\\$&')}"`).join(',')}}`);
  }
  const priceCurrency = input.currency ?? ctx.marketplace.currencies[0];
  /** the price range in the default currency (`price_base`), each end as the statement compares it */
  const baseRange: { min_price?: number; max_price?: number } = {};
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
    if (priceCurrency === rates.defaultCurrency) {
      facetFilter(name, 'price', `l.price_base ${op} ?`, base); // price_base is the price as displayed in the default currency
      baseRange[name] = base;
      continue;
    }
    // In another currency a listing matches when its price as displayed in that currency (converted
    // from its own, rounded like display_price) is within the bound; the bound one unit wider in the
    // default currency keeps the price index in use.
    const wider = rates.convert(name === 'max_price' ? v + 1 : v - 1, priceCurrency!, rates.defaultCurrency)!;
    const shown = displayedIn(priceCurrency!, ctx.marketplace.currencies, rates);
    facetFilter(name, 'price', `l.price_base ${op} ? and ${shown.sql} ${op} ?`, wider, ...shown.params, v);
    baseRange[name] = wider;
  }
  // A price range with a category or terms: the listings in the category with those terms in the range's
  // price buckets, found in one index search of their `search_keys` (one condition per term kind, each
  // with the category; Migration20261202010000_search_keys). The conditions above stay, and check them.
  if (baseRange.min_price !== undefined || baseRange.max_price !== undefined) {
    const keysOf = (terms: string[] | null) => filter('keys', `l.search_keys && hm_search_keys(?::uuid, ?::uuid[], ?::bigint, ?::bigint)`, input.category ?? null, terms && `{${terms.join(',')}}`, baseRange.min_price ?? null, baseRange.max_price ?? null);
    if (termsByKind.length) termsByKind.forEach(keysOf);
    else if (input.category) keysOf(null);
  }
  if (input.min_price !== undefined && input.max_price !== undefined && input.min_price > input.max_price) {
    errors.push({ location: 'max_price', message: 'Must be at least min_price.', value: input.max_price });
  }
  // what the caller asked to narrow (the sort's own condition below is not a filter)
  const filtered = filters.length > 0;
  const priceSort = sort === 'price_asc' || sort === 'price_desc';
  if (priceSort) filter('priced', 'l.price_base is not null');
  const { where, params } = conditions(scoped.marketplace, filters);

  const askedFacets = parseFacets(input.facets, ctx.marketplace.termKinds.map((k) => k.key), errors);
  const s = SORTS[sort];
  const fingerprint = JSON.stringify({ v: 2, m: ctx.marketplace.id, sort, q: hasWords ? words : null, c: input.category, t: [...input.term].sort(), s: input.seller, a: [...input.attr].sort(), min: input.min_price, max: input.max_price, cur: priceCurrency });
  const pages = keyset(fingerprint, s.types);
  const after = pages.after(input.cursor, errors);
  if (errors.length) throw new ValidationError(errors);

  // relevance tier: all words in the title (3), in title and term names (2), else (1, the description helped)
  const pageSql = (extra: string[], keyCols: string, order: string, base = where) =>
    `select l.id, ${keyCols} from listings l where ${[...base, ...extra].join(' and ')} order by ${order} limit ?`;
  const pageRows = async (): Promise<Record<string, unknown>[]> => {
    if (sort !== 'relevance') {
      const keyCmp = after ? [`(${s.key.join(', ')}) ${s.cmp} (${s.types.map((t) => `?::${t}`).join(', ')})`] : [];
      return scoped.query(pageSql(keyCmp, s.key.map((k, i) => `${k} as k${i}`).join(', '), s.order), [...params, ...(after ?? []), input.limit + 1]);
    }
    // Relevance: one tier after the other, each newest first on its own, until the page is full — the
    // whole set of matches is never scored and sorted. Tiers 6 and 5 have an index of their own (the title),
    // and go without the words' own filter: the planner then sees the title's statistics alone (dense
    // → the newest index, filtered; sparse → the title index), not those multiplied by the words' again.
    const withoutWords = conditions(scoped.marketplace, filters.filter((f) => f.name !== 'words'));
    // Six tiers: all words in the title (6), then in title and term names (4), then anywhere (2); each
    // followed by the listings that match there only through a word's infix or typo matches (5, 3, 1),
    // which are skipped when no word has any (the query then costs what it did before them).
    const title = `l.title_doc @@ ${tsconst}`; // its value: the tier's params say which query
    const strictAB = tsqueryText(qWords, false, 'AB');
    const looseAB = tsqueryText(qWords, true, 'AB');
    const ab = `l.search_doc @@ ${tsopaque}`;
    const tiers: { tier: number; cond: string; params: unknown[]; base?: typeof withoutWords }[] = [
      { tier: 6, cond: title, params: [strictQ], base: withoutWords },
      ...(loose ? [{ tier: 5, cond: `${title} and not (${title})`, params: [looseQ, strictQ], base: withoutWords }] : []),
      { tier: 4, cond: `not (${title}) and ${ab}`, params: [looseQ, strictAB] },
      ...(loose ? [{ tier: 3, cond: `not (${title}) and not (${ab}) and ${ab}`, params: [looseQ, strictAB, looseAB] }] : []),
      // (without infix or typo matches the words' own filter is this tier's: not repeated, so the planner's guess stays right)
      loose ? { tier: 2, cond: `not (${ab}) and l.search_doc @@ ${tsconst}`, params: [looseAB, strictQ] } : { tier: 2, cond: `not (${ab})`, params: [looseAB] },
      ...(loose ? [{ tier: 1, cond: `not (${ab}) and not (l.search_doc @@ ${tsconst})`, params: [looseAB, strictQ] }] : []),
    ];
    const out: Record<string, unknown>[] = [];
    for (const t of tiers) {
      const [afterTier, ...afterKey] = after ?? [];
      if (after && t.tier > Number(afterTier)) continue;
      const keyCmp = after && t.tier === Number(afterTier) ? [`(l.published_at, l.id) < (?::timestamptz, ?::uuid)`] : [];
      const rows = await scoped.query(pageSql([t.cond, ...keyCmp], `${t.tier} as k0, l.published_at as k1, l.id as k2`, 'l.published_at desc, l.id desc', t.base?.where), [
        ...(t.base?.params ?? params),
        ...t.params,
        ...(keyCmp.length ? afterKey : []),
        input.limit + 1 - out.length,
      ]);
      out.push(...rows);
      if (out.length > input.limit) break;
    }
    return out;
  };
  // Unfiltered, the total is the marketplace's on-sale count (kept by a trigger) — for price sorts less
  // the few without a comparable price (a small partial index); otherwise the matches counted (or estimated).
  // (read once: the count, its kept estimate's key and the facets' scale all want it)
  let onSaleRead: Promise<number> | undefined;
  const onSale = () => (onSaleRead ??= onSaleCount(scoped));
  const countTotal = async (): Promise<Total> => {
    // counting, the words stay opaque: with their statistics the planner takes a capped count for a scan
    // that stops early, and reads every listing when fewer match (measured: 85 ms against 15 at 50k)
    if (filtered) {
      // an exact count of the same filters made since the marketplace's listings last changed (kept per process: KeptCounts)
      const key = JSON.stringify(filters.map((f) => [f.sql, f.params]));
      const kept = ctx.keptCounts?.get(key);
      if (kept !== undefined) return { total: kept, estimate: false };
      const total = await countMatches(scoped, filters, withWordsAs(filters, `l.search_doc @@ ${tsopaque}`, [looseQ]), onSale, countWithPage);
      if (!total.estimate) ctx.keptCounts?.set(key, total.total);
      return total;
    }
    if (!priceSort) return { total: await onSale(), estimate: false };
    const sql = `select (coalesce((select on_sale from shop_counts where marketplace_id = ?), 0) - (select count(*) from listings l where l.marketplace_id = ? and l.on_sale and l.price_base is null))::int as total`;
    const [row] = await scoped.query<{ total: number }>(sql, [scoped.marketplace, scoped.marketplace]);
    return { total: row!.total, estimate: false };
  };
  // A first page not by relevance, when few listings are expected to match: the page statement counts
  // them too (`count(*) over ()`), so they are read once, not once for the page and again for the count.
  let pageWithCount: Record<string, unknown>[] | undefined;
  const countWithPage =
    after || sort === 'relevance'
      ? undefined
      : async (): Promise<Total> => {
          pageWithCount = await scoped.query(pageSql([], `${s.key.map((k, i) => `${k} as k${i}`).join(', ')}, count(*) over () as n`, s.order), [...params, input.limit + 1]);
          return { total: Number(pageWithCount[0]?.n ?? 0), estimate: false };
        };
  const counted = await countTotal();
  // counted exactly as none: no page to read (a word nothing has would otherwise be looked for in every tier)
  const rows = pageWithCount ?? (counted.total === 0 && !counted.estimate ? [] : await pageRows());
  const { items: page, nextCursor } = pages.page(rows, input.limit, (r) => s.key.map((_k, i) => r[`k${i}`]));
  // nothing found: the closest query the vocabulary offers that finds something with the same filters
  const didYouMean = counted.total === 0 && hasWords ? await suggest(scoped, qWords, filters) : undefined;
  // facets only when asked for: a page without them costs what it did before
  // (an estimate — facets above 10 000 listings — is kept a short while: kept-estimates.ts)
  const facetOpts = askedFacets.length
    ? {
        asked: askedFacets,
        filters: filters.filter((f) => f.name !== 'words' && f.name !== 'priced' && f.name !== 'keys').map((f) => ({ sql: f.sql, params: f.params, facet: f.facet })),
        words: hasWords ? { sql: `l.search_doc @@ ${tsopaque}`, params: [looseQ] } : undefined,
        total: counted,
        price: priceCurrency === rates.defaultCurrency || !priceCurrency ? { sql: 'l.price_base', params: [], currency: rates.defaultCurrency } : { ...displayedIn(priceCurrency, ctx.marketplace.currencies, rates), currency: priceCurrency },
        onSale: await onSale(),
      }
    : undefined;
  const facets = facetOpts
    ? await keptEstimate(['facets', scoped.marketplace, facetOpts], (f) => f.estimates, () => countFacets(scoped, facetOpts))
    : undefined;
  return {
    ids: page.map((r) => String(r.id)),
    total: counted.total,
    ...(counted.estimate ? { totalIsEstimate: true } : {}),
    ...(nextCursor ? { nextCursor } : {}),
    ...(didYouMean ? { didYouMean } : {}),
    ...(facets ? { facets: facets.facets, ...(facets.estimates ? { facetsAreEstimates: true } : {}) } : {}),
  };
}
