import { MarketplaceSchema } from '@hm/db/entities';
import type { EntityManager } from '@hm/db/orm';
import { crossTenantEm, tenantEm, type MikroORM } from '@hm/db/orm';
import { z } from 'zod';
import type { Clock } from '../../core/context.js';
import { addJob, jobKey } from '../../core/jobs.js';
import { defineTask } from '../../core/tasks.js';
import { loadRateBook, todayOf } from '../rate-book.js';
import { applyPriceFactors, listingCurrencies, replacePriceFactors } from '../rates.queries.js';

/** Queues a reprice of a marketplace's listings (one waiting job per marketplace). */
export function queueReprice(em: EntityManager, marketplaceId: string): Promise<void> {
  return addJob(em, repriceListingsTask, { marketplace_id: marketplaceId }, { jobKey: jobKey(repriceListingsTask, marketplaceId) });
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
  const currencies = [...new Set([...m.currencies, ...(await listingCurrencies(tx))])];
  const factors = currencies.flatMap((currency) => {
    const factor = book.factor(currency);
    return factor === undefined ? [] : [{ currency, factor }];
  });
  await replacePriceFactors(tx, factors, today);
  return { currencies: factors.length, listings: await applyPriceFactors(tx) };
}

// Both tasks are declared here: `reprice-listings` is queued by `queueReprice` above, so a task file
// of its own would import this module and be imported by it.

/** Brings one marketplace's listing prices in its default currency in line with the day's rates. */
export const repriceListingsTask = defineTask({
  name: 'reprice-listings',
  payload: z.object({ marketplace_id: z.uuid() }),
  run: async (p, ctx) => {
    const r = await repriceListings(ctx, p.marketplace_id);
    return `${r.currencies} currencies, ${r.listings} listings changed`;
  },
});

/** Daily: rates dated today (set in advance) take effect; one reprice job per marketplace. */
export const repriceAllTask = defineTask({
  name: 'reprice-all',
  payload: z.object({}),
  run: async (_p, ctx) => {
    const em = crossTenantEm(ctx.orm);
    const marketplaces = await em.find(MarketplaceSchema, {}, { fields: ['id'] });
    await em.transactional(async (tx) => {
      for (const m of marketplaces) await queueReprice(tx, m.id);
    });
    return `queued reprice for ${marketplaces.length} marketplaces`;
  },
});
