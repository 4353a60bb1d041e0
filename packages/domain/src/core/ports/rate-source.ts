import { z } from 'zod';
import { ZCurrencyCode } from '../schemas.js';

/** Reference rates as rate services publish them (the shape of ECB-based ones): 1 base = rate quote. */
export const ZReferenceRates = z.object({
  date: z.iso.date(),
  base: ZCurrencyCode,
  rates: z.record(z.string(), z.number().positive().finite()),
});
export type ReferenceRates = z.infer<typeof ZReferenceRates>;

/** Exchange-rate port: where the daily `import-rates` task reads the day's reference rates. */
export interface RateSource {
  /** for logs: where the rates come from */
  readonly name: string;
  /** The latest published rates; rejects when the source cannot be read or answers something else. */
  latest(): Promise<ReferenceRates>;
}
