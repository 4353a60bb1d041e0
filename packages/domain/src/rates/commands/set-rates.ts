import { ExchangeRateSchema, type ExchangeRate } from '@hm/db/entities';
import type { EntityManager } from '@hm/db/orm';
import { z } from 'zod';
import { ValidationError } from '../../core/errors.js';
import { ZCurrencyCode } from '../../core/schemas.js';
import { queueReprice } from './reprice-listings.js';
import { latestRates } from '../rates.queries.js';

export const ZSetRates = z.strictObject({
  date: z.iso.date().describe('First day the rates apply (YYYY-MM-DD).'),
  base: ZCurrencyCode.describe('The currency the rates are quoted against.'),
  rates: z
    .record(ZCurrencyCode, z.number().positive().finite())
    .refine((r) => Object.keys(r).length > 0, 'Give at least one rate.')
    .describe('How much of each quote currency one base buys, e.g. SEK=11.52,USD=1.05.'),
});
export type SetRatesInput = z.infer<typeof ZSetRates>;

/**
 * Records `1 base = rate quote` from `date` on; setting a day again replaces that day's rate of the
 * pair, whichever way it was quoted (the day's SEK→EUR replaces its EUR→SEK). The
 * reprice is queued in the same transaction, so no caller (console, import, seed) can leave the
 * listings' `price_base` on the old rates — or empty, which drops them from price sorts and filters.
 */
export async function setRates(em: EntityManager, marketplaceId: string, input: SetRatesInput): Promise<ExchangeRate[]> {
  const errors = Object.keys(input.rates)
    .filter((q) => q === input.base)
    .map((q) => ({ location: `rates.${q}`, message: 'A currency has no rate against itself.', value: input.rates[q] }));
  if (errors.length) throw new ValidationError(errors);
  return em.transactional(async (tx) => {
    const out: ExchangeRate[] = [];
    for (const [quote, rate] of Object.entries(input.rates)) {
      await tx.nativeDelete(ExchangeRateSchema, { marketplaceId, date: input.date, base: quote, quote: input.base });
      const row = await tx.upsert(
        ExchangeRateSchema,
        { marketplaceId, date: input.date, base: input.base, quote, rate },
        { onConflictFields: ['marketplaceId', 'base', 'quote', 'date'], onConflictAction: 'merge', onConflictMergeFields: ['rate'] },
      );
      out.push(row);
    }
    await queueReprice(tx, marketplaceId);
    return out;
  });
}

export function toRateBody(r: ExchangeRate) {
  return { date: r.date, base: r.base, quote: r.quote, rate: r.rate };
}

/** The rates in force on `today` (console `rates list`, GET /console/v1/rates): per currency pair the latest on or before it, the rate exact as text. */
export async function currentRates(em: EntityManager, today: string) {
  return (await latestRates(em, today)).map((r) => ({ date: r.date, base: r.base, quote: r.quote, rate: r.rate }));
}
