// eslint-disable-next-line no-restricted-imports -- search assembles its statement from the request's filters here; it runs through tenantSql
import type { tenantSql } from '@hm/db/sql';
import { keptEstimate } from '../kept-estimates.js';
import { conditions, type Filter } from './search-filters.js';

/** The marketplace's listings on sale (kept by a trigger in shop_counts). */
export async function onSaleCount(sql: ReturnType<typeof tenantSql>): Promise<number> {
  const [row] = await sql.query<{ n: number }>(`select coalesce((select on_sale from shop_counts where marketplace_id = ?), 0)::int as n`, [sql.marketplace]);
  return row!.n;
}

/** `total` is exact up to this many matches; above, it may be an estimate within ±5 % (`total_is_estimate`). */
export const EXACT_TOTAL_UP_TO = 10_000;
/** Sampled matches an estimate rests on: its relative standard error is then about 1/√4000 ≈ 1.6 %, so ±5 % is 3 of them. */
const SAMPLED_MATCHES = 4000;
/** A marketplace with fewer than twice this many listings on sale is counted, never sampled; a sample holds at least a quarter of it. */
const FIRST_SAMPLE = 20_000;
/** Below this many matches (as the sample reckons) counting them all costs about what a big enough sample does. */
const COUNT_ALL_BELOW = 50_000;

export interface Total {
  total: number;
  estimate: boolean;
}

/**
 * The number of the shop's listings matching `filters` (`planned`: the same with the words visible
 * to the planner, for its guess). Exact up to EXACT_TOTAL_UP_TO; past that estimated from a sample of the table's pages
 * (`tablesample system`, repeatable, so a query's estimate does not change from page to page), which
 * costs the pages sampled, not the number of matches. The share of the marketplace's on-sale
 * listings in the sample that match, times its on-sale count (kept by a trigger), is the estimate.
 *
 * The matches are counted up to EXACT_TOTAL_UP_TO + 1, and past that all of them, when the
 * marketplace is too small for a sample (FIRST_SAMPLE listings would be half of them), when the
 * planner expects fewer than COUNT_ALL_BELOW / 2 matches (from its statistics, reading no rows:
 * EXPLAIN), or when the sample finds fewer than COUNT_ALL_BELOW (five times the exact limit).
 * (When the planner expects few, `countWithPage`, when given, counts them exactly with the page.)
 * Otherwise nothing is counted: the sample is sized by the planner's guess to hold SAMPLED_MATCHES
 * matches with a quarter to spare (at least a quarter of FIRST_SAMPLE listings); when it holds fewer,
 * a second, sized by what the first found, is taken (when that would be half the listings, they are
 * counted).
 */
export async function countMatches(
  sql: ReturnType<typeof tenantSql>,
  planned: readonly Filter[],
  filters: readonly Filter[],
  /** the marketplace's listings on sale (shop_counts, kept by a trigger) */
  onSaleNow: () => Promise<number>,
  countWithPage?: () => Promise<Total>,
): Promise<Total> {
  const { where, params } = conditions(sql.marketplace, filters);
  const all = where.join(' and ');
  const countAll = async (): Promise<Total> => {
    const [row] = await sql.query<{ n: number }>(`select count(*)::int as n from listings l where ${all}`, params);
    return { total: row!.n, estimate: false };
  };
  const countCapped = async (): Promise<Total> => {
    const [capped] = await sql.query<{ n: number }>(`select count(*)::int as n from (select 1 from listings l where ${all} limit ${EXACT_TOTAL_UP_TO + 1}) m`, params);
    return capped!.n <= EXACT_TOTAL_UP_TO ? { total: capped!.n, estimate: false } : countAll();
  };
  const matching = filters.map((f) => f.sql).join(' and ');
  const filterParams = filters.flatMap((f) => f.params);
  const on_sale = await onSaleNow();
  // an estimate of this count, with as many listings on sale, made a moment ago: kept-estimates.ts
  return keptEstimate(['total', sql.marketplace, on_sale, all, params], (t) => t.estimate, () => estimateOrCount());
  async function estimateOrCount(): Promise<Total> {
    const sample = async (percent: number) => {
      const [row] = await sql.query<{ matched: number; looked: number }>(
        `select count(*) filter (where ${matching})::int as matched, count(*)::int as looked
           from listings l tablesample system (?) repeatable (0) where l.marketplace_id = ? and l.on_sale`,
        [...filterParams, percent, sql.marketplace],
      );
      return { matched: row!.matched, estimate: row!.looked === 0 ? 0 : Math.round((row!.matched / row!.looked) * on_sale) };
    };
    if ((100 * FIRST_SAMPLE) / Math.max(on_sale, 1) >= 50) return countCapped();
    // the planner's guess (its statistics, no rows read): few matches are counted; for many it sizes the sample
    const guessed = conditions(sql.marketplace, planned);
    const [plan] = await sql.query<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>(`explain (format json) select 1 from listings l where ${guessed.where.join(' and ')}`, guessed.params);
    const guess = plan!['QUERY PLAN'][0].Plan['Plan Rows'];
    if (guess < COUNT_ALL_BELOW / 2) return countWithPage ? countWithPage() : countCapped();
    const first = Math.max((100 * FIRST_SAMPLE) / on_sale / 4, (100 * SAMPLED_MATCHES * 1.25) / guess);
    if (first >= 50) return countAll();
    const one = await sample(first);
    if (one.estimate < COUNT_ALL_BELOW) return countCapped();
    if (one.matched >= SAMPLED_MATCHES) return { total: Math.max(one.estimate, EXACT_TOTAL_UP_TO + 1), estimate: true };
    const second = (first * SAMPLED_MATCHES * 1.25) / Math.max(one.matched, 1);
    if (second >= 50) return countAll();
    const two = await sample(second);
    return { total: Math.max(two.estimate, EXACT_TOTAL_UP_TO + 1), estimate: true };
  }
}
