import { MarketplaceSchema } from '@hm/db/entities';
import type { EntityManager } from '@hm/db/orm';
import { tenantEm, type MikroORM } from '@hm/db/orm';
import { z } from 'zod';
import type { Clock } from '../../context.js';
import { addJob, jobKey } from '../../shared/jobs.js';
import { defineTask } from '../../shared/tasks.js';
import { loadRateBook, todayOf } from '../rate-book.js';

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
  const em = tenantEm(deps.orm, marketplaceId);
  return em.transactional(async (tx) => {
    const m = await tx.findOneOrFail(MarketplaceSchema, { id: marketplaceId });
    const today = todayOf(deps.clock.now());
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
  });
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
    const em = ctx.orm.em.fork();
    const marketplaces = await em.find(MarketplaceSchema, {}, { fields: ['id'] });
    await em.transactional(async (tx) => {
      for (const m of marketplaces) await queueReprice(tx, m.id);
    });
    return `queued reprice for ${marketplaces.length} marketplaces`;
  },
});
