import { MarketplaceSchema } from '@hm/db/entities';
import type { EntityManager } from '@hm/db/orm';
import { tenantEm, type MikroORM } from '@hm/db/orm';
import type { Clock } from '../../context.js';
import { addJob } from '../../shared/jobs.js';
import { loadRateBook, todayOf } from '../rate-book.js';
import { applyPriceFactors, listingCurrencies, replacePriceFactors } from '../rates.queries.js';

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
  const em = tenantEm(deps.orm, marketplaceId);
  return em.transactional(async (tx) => {
    const m = await tx.findOneOrFail(MarketplaceSchema, { id: marketplaceId });
    const today = todayOf(deps.clock.now());
    const book = await loadRateBook(tx, m, today);
    const currencies = [...new Set([...m.currencies, ...(await listingCurrencies(tx))])];
    const factors = currencies.flatMap((currency) => {
      const factor = book.factor(currency);
      return factor === undefined ? [] : [{ currency, factor }];
    });
    await replacePriceFactors(tx, factors, today);
    return { currencies: factors.length, listings: await applyPriceFactors(tx) };
  });
}
