import type { EntityManager } from '@hm/db/orm';
import { tenantSql } from '@hm/db/sql';
import type { Ratio } from '../core/money.js';

/**
 * Exchange rates as search needs them, and `price_factors` (per marketplace and currency: minor
 * units of the default currency per minor unit, the exact fraction `factor_num / factor_den`; no
 * entity, the reprice job rewrites the set).
 */

/**
 * For every currency pair the marketplace has rates for, the latest rate on or before `today`,
 * whichever way it was quoted (EUR→SEK and SEK→EUR are one pair: the newer wins). The rate is the
 * `numeric`'s text, exact.
 */
export function latestRates(em: EntityManager, today: string) {
  const sql = tenantSql(em);
  return sql<{ base: string; quote: string; rate: string; date: string }>`select distinct on (least(base, quote), greatest(base, quote))
       base, quote, rate::text as rate, date::text as date from exchange_rates
     where marketplace_id = ${sql.marketplace} and date <= ${today}
     order by least(base, quote), greatest(base, quote), date desc, created_at desc, id desc`;
}

/** Currencies the marketplace's listings are priced in. */
export async function listingCurrencies(em: EntityManager): Promise<string[]> {
  const sql = tenantSql(em);
  const rows = await sql<{ currency: string }>`select distinct price_currency as currency from listings
     where marketplace_id = ${sql.marketplace} and price_currency is not null`;
  return rows.map((r) => r.currency);
}

/** Replaces the marketplace's price factors with these. */
export async function replacePriceFactors(em: EntityManager, factors: { currency: string; factor: Ratio }[], ratesDate: string): Promise<void> {
  const sql = tenantSql(em);
  await sql`delete from price_factors where marketplace_id = ${sql.marketplace}`;
  for (const f of factors) {
    await sql`insert into price_factors (marketplace_id, currency, factor_num, factor_den, rates_date)
       values (${sql.marketplace}, ${f.currency}, ${f.factor.num.toString()}::numeric, ${f.factor.den.toString()}::numeric, ${ratesDate})`;
  }
}

/** Sets every listing's `price_base` from its price and the factors, touching only rows whose value changes; returns how many. */
export async function applyPriceFactors(em: EntityManager): Promise<number> {
  const sql = tenantSql(em);
  const updated = await sql<{ id: string }>`update listings l set price_base = x.base from (
       select l2.id, case when l2.price_amount is null then null else hm_round_div(l2.price_amount * f.factor_num, f.factor_den) end as base
         from listings l2 left join price_factors f on f.marketplace_id = l2.marketplace_id and f.currency = l2.price_currency
        where l2.marketplace_id = ${sql.marketplace}) x
     where l.marketplace_id = ${sql.marketplace} and l.id = x.id and l.price_base is distinct from x.base returning l.id`;
  return updated.length;
}

