import type { z } from 'zod';
import { consoleProcedure } from '../../trpc.js';
import { ZSetRates, currentRates, setRates, toRateBody, todayOf } from '@hm/domain/rates';
import { ZMarketplaceRef, cliScope, scoped } from '../console-scope.js';
import { operation, perform } from '../operations.js';

/** `rates set|list`, POST and GET /console/v1/rates. */
export const setRatesOp = operation({
  action: 'rates.set',
  write: true,
  target: (i: { base: string; date: string }) => ({ type: 'rates', id: `${i.base}@${i.date}` }),
  run: async (s, input: z.output<typeof ZSetRates>) => ({ items: (await setRates(s.em, s.marketplace.id, input)).map(toRateBody) }), // queues the reprice
});

export const listRatesOp = operation({
  action: 'rates.list',
  write: false,
  target: () => ({ type: 'rates', id: '' }),
  run: async (s, _input: object) => ({ items: await currentRates(s.em, todayOf(s.ctx.clock.now())) }),
});

export const setRatesProcedure = consoleProcedure
  .input(ZMarketplaceRef.extend(ZSetRates.shape).describe('Record exchange rates from a date on (1 base = rate quote); listings are repriced.'))
  .mutation(async ({ ctx, input }) => {
    const { marketplace, ...rates } = input;
    return perform(setRatesOp, cliScope(ctx, await scoped(ctx, marketplace)), rates);
  });

export const listRatesProcedure = consoleProcedure
  .input(ZMarketplaceRef.describe('The exchange rates in force today: per currency pair the latest on or before today (the rate exact, as text).'))
  .query(async ({ ctx, input }) => perform(listRatesOp, cliScope(ctx, await scoped(ctx, input.marketplace)), {}));
