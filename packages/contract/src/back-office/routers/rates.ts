import { z } from 'zod';
import { ZSetRates } from '@hm/domain/rates';
import { router } from '../../trpc.js';
import { perform } from '../../console/operations.js';
import { listRatesOp, setRatesOp } from '../../console/procedures/set-rates.js';
import { operatorProcedure } from '../procedure.js';
import { openapi, read, write } from '../meta.js';

const ZRate = z.object({ date: z.string(), base: z.string(), quote: z.string(), rate: z.union([z.string(), z.number()]).describe('1 base buys this much quote (exact).') });

/** Exchange rates (`rates list|set` on the command line). */
export const rates = router({
  list: operatorProcedure
    .meta(read(openapi('GET', '/rates', 'Rates', 'Exchange rates', 'The rates in force today: per currency pair, the latest recorded on or before today (either way round), the rate exact as text.')))
    .input(z.object({}))
    .output(z.object({ items: z.array(ZRate) }))
    .query(({ ctx }) => perform(listRatesOp, ctx.scope, {})),
  set: operatorProcedure
    .meta(
      write(openapi('POST', '/rates', 'Rates', 'Record exchange rates', 'Admins only. `1 base = rate quote` from `date` on (a day set again is replaced, whichever way it was quoted); the listings are repriced in the background.'), {
        successStatus: 201,
        requestExample: { date: '2026-12-01', base: 'EUR', rates: { SEK: 11.52, USD: 1.05 } },
      }),
    )
    .input(ZSetRates)
    .output(z.object({ items: z.array(ZRate) }))
    .mutation(({ ctx, input }) => perform(setRatesOp, ctx.scope, input)),
});
