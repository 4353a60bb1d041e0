import { consoleProcedure } from '../../trpc.js';
import { ZSetRates, setRates, toRateBody } from '@hm/domain/rates';
import { ZMarketplaceRef, scoped } from '../console-scope.js';

export const setRatesProcedure = consoleProcedure
  .input(ZMarketplaceRef.extend(ZSetRates.shape).describe('Record exchange rates from a date on (1 base = rate quote); listings are repriced.'))
  .mutation(async ({ ctx, input }) => {
    const { marketplace: slug, ...rates } = input;
    const { marketplace, em } = await scoped(ctx, slug);
    return { items: (await setRates(em, marketplace.id, rates)).map(toRateBody) }; // queues the reprice
  });
