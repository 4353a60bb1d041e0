import { MarketplaceSchema } from '@hm/db/entities';
import { crossTenantEm, tenantEm, type MikroORM } from '@hm/db/orm';
import { z } from 'zod';
import { defineTask } from '../../core/tasks.js';
import type { RateSource } from '../../core/ports/rate-source.js';
import { setRates } from './set-rates.js';

/**
 * The optional daily `import-rates` job: reads the reference rates from the rates port and records,
 * for every marketplace, the rates of its currencies, then queues its reprice. Operators' own rates
 * for the same day are replaced; earlier days are kept (the day's rate is the latest on or before today).
 */
export async function importReferenceRates(deps: { orm: MikroORM; rates: RateSource }): Promise<{ date: string; marketplaces: number; rates: number }> {
  const body = await deps.rates.latest();
  const known = new Set(Intl.supportedValuesOf('currency'));
  let stored = 0;
  const marketplaces = await crossTenantEm(deps.orm).find(MarketplaceSchema, {});
  for (const m of marketplaces) {
    const wanted = Object.fromEntries(Object.entries(body.rates).filter(([q]) => q !== body.base && known.has(q) && (m.currencies.includes(q) || m.currencies.includes(body.base))));
    if (Object.keys(wanted).length === 0) continue;
    const em = tenantEm(deps.orm, m.id);
    stored += (await setRates(em, m.id, { date: body.date, base: body.base, rates: wanted })).length; // queues its reprice
  }
  return { date: body.date, marketplaces: marketplaces.length, rates: stored };
}

/** Daily, when a rates source is configured (`RATES_URL`): reference rates for every marketplace (then each reprices). */
export const importRatesTask = defineTask({
  name: 'import-rates',
  payload: z.object({}),
  run: async (_p, ctx) => {
    if (!ctx.rates) return 'no RATES_URL set; rates come from the console only';
    const r = await importReferenceRates({ orm: ctx.orm, rates: ctx.rates });
    return `${r.rates} rates of ${r.date} for ${r.marketplaces} marketplaces`;
  },
});
