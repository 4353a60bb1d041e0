import { MarketplaceSchema } from '@hm/db/entities';
import { tenantEm, type MikroORM } from '@hm/db/orm';
import { z } from 'zod';
import { ZCurrencyCode } from '../../shared/schemas.js';
import { setRates } from './set-rates.js';

/** What the reference-rates URL answers (the shape of ECB-based rate services): 1 base = rate quote. */
export const ZReferenceRates = z.object({
  date: z.iso.date(),
  base: ZCurrencyCode,
  rates: z.record(z.string(), z.number().positive().finite()),
});

/**
 * The optional daily `import-rates` job: fetches reference rates from RATES_URL and records, for
 * every marketplace, the rates of its currencies, then queues its reprice. Operators' own rates for
 * the same day are replaced; earlier days are kept (the day's rate is the latest on or before today).
 */
export async function importReferenceRates(deps: { orm: MikroORM; fetch?: typeof fetch }, url: string): Promise<{ date: string; marketplaces: number; rates: number }> {
  const res = await (deps.fetch ?? fetch)(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(30_000) });
  if (!res.ok) throw new Error(`reference rates: ${url} answered ${res.status}`);
  const body = ZReferenceRates.parse(await res.json());
  const known = new Set(Intl.supportedValuesOf('currency'));
  let stored = 0;
  const marketplaces = await deps.orm.em.fork().find(MarketplaceSchema, {});
  for (const m of marketplaces) {
    const wanted = Object.fromEntries(Object.entries(body.rates).filter(([q]) => q !== body.base && known.has(q) && (m.currencies.includes(q) || m.currencies.includes(body.base))));
    if (Object.keys(wanted).length === 0) continue;
    const em = tenantEm(deps.orm, m.id);
    stored += (await setRates(em, m.id, { date: body.date, base: body.base, rates: wanted })).length; // queues its reprice
  }
  return { date: body.date, marketplaces: marketplaces.length, rates: stored };
}
