import { z } from 'zod';
import { failedPayouts, retryPayout } from '@hm/domain/payouts';
import { consoleProcedure } from '../../trpc.js';
import { ZMarketplaceRef, cliScope, scoped } from '../console-scope.js';
import { operation, perform } from '../operations.js';

export const ZFailedLimit = z.number().int().min(1).max(1000).default(100).describe('At most this many (1..1000, default 100).');

/** The team's attention list of payouts: the ones the payment provider refused for good, with why. */
export const failedPayoutsOp = operation({
  action: 'payouts.failed',
  write: false,
  target: () => ({ type: 'payouts', id: '' }),
  run: async (s, input: { limit: number }) => ({ items: await failedPayouts(s.em, input.limit) }),
});

/** The team fixed the cause: a failed payout back to pending, and paid by the pay-seller job. */
export const retryPayoutOp = operation({
  action: 'payout.retry',
  write: true,
  target: (i: { order: string }) => ({ type: 'order', id: i.order }),
  run: (s, input: { order: string }) => retryPayout(s.em, { marketplaceId: s.marketplace.id, orderId: input.order }, s.ctx.clock.now()),
});

export const failedPayoutsProcedure = consoleProcedure
  .input(
    ZMarketplaceRef.extend({ limit: ZFailedLimit }).describe(
      'Payouts that need the team: the provider refused the transfer for good (invalid request, the seller’s account not able to take it, the platform’s balance short, a currency). Fix the cause, then `payouts retry`.',
    ),
  )
  .query(async ({ ctx, input }) => perform(failedPayoutsOp, cliScope(ctx, await scoped(ctx, input.marketplace)), input));

export const retryPayoutProcedure = consoleProcedure
  .input(ZMarketplaceRef.extend({ order: z.uuid().describe('Order id of the failed payout.') }).describe('Retries a failed payout after the cause was fixed: back to pending, and the pay-seller job pays it (or fails it again, saying why).'))
  .mutation(async ({ ctx, input }) => perform(retryPayoutOp, cliScope(ctx, await scoped(ctx, input.marketplace)), { order: input.order }));
