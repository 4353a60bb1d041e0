import { MarketplaceSchema } from '@hm/db/entities';
import type { EntityManager } from '@hm/db/orm';
import { tenantEm, type MikroORM } from '@hm/db/orm';
import type { Clock } from '../../context.js';
import { addJob } from '../../shared/jobs.js';
import { loadRateBook, todayOf } from '../rate-book.js';

export const REPRICE_TASK = 'reprice-listings';

/** Queues a reprice of a marketplace's listings (one waiting job per marketplace). */
export function queueReprice(em: EntityManager, marketplaceId: string): Promise<void> {
  return addJob(em, REPRICE_TASK, { marketplace_id: marketplaceId }, { jobKey: `${REPRICE_TASK}:${marketplaceId}` });
}

/**
 * The `reprice-listings` job: stores the day's conversion factor of every currency in use and
 * brings each listing's `price_base` (its price in the default currency, which search sorts and
 * filters on) in line, touching only rows whose value changes. Runs when rates are set, when the
 * default currency may have changed, and daily (a rate dated today may have been set in advance).
 */
export async function repriceListings(deps: { orm: MikroORM; clock: Clock }, marketplaceId: string): Promise<{ currencies: number; listings: number }> {
  return tenantEm(deps.orm, marketplaceId).transactional((tx) => repriceIn(tx, marketplaceId, todayOf(deps.clock.now())));
}

/** The reprice on the caller's entity manager (inside its transaction), with the rates of `today`. */
export async function repriceIn(tx: EntityManager, marketplaceId: string, today: string): Promise<{ currencies: number; listings: number }> {
  const m = await tx.findOneOrFail(MarketplaceSchema, { id: marketplaceId });
  const book = await loadRateBook(tx, m, today);
  const used = await tx.execute<{ currency: string }[]>(`select distinct price_currency as currency from listings where marketplace_id = ? and price_currency is not null`, [marketplaceId]);
  const currencies = [...new Set([...m.currencies, ...used.map((u) => u.currency)])];
  await tx.execute(`delete from price_factors where marketplace_id = ?`, [marketplaceId]);
  let n = 0;
  for (const c of currencies) {
    const f = book.factor(c);
    if (f === undefined) continue;
    await tx.execute(`insert into price_factors (marketplace_id, currency, factor, rates_date) values (?, ?, ?, ?)`, [marketplaceId, c, f, today]);
    n++;
  }
  const updated = await tx.execute<{ id: string }[]>(
    `update listings l set price_base = x.base from (
       select l2.id, case when l2.price_amount is null then null else round(l2.price_amount * f.factor) end as base
         from listings l2 left join price_factors f on f.marketplace_id = l2.marketplace_id and f.currency = l2.price_currency
        where l2.marketplace_id = ?) x
     where l.id = x.id and l.price_base is distinct from x.base returning l.id`,
    [marketplaceId],
  );
  return { currencies: n, listings: updated.length };
}
