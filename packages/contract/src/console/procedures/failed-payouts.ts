import { z } from 'zod';
import { failedPayouts, retryPayout } from '@hm/domain/payouts';
import { consoleProcedure } from '../../trpc.js';
import { ZMarketplaceRef, scoped } from '../console-scope.js';

/** The team's attention list of payouts: the ones the payment provider refused for good, with why. */
export const failedPayoutsProcedure = consoleProcedure
  .input(
    ZMarketplaceRef.extend({ limit: z.number().int().min(1).max(1000).default(100).describe('At most this many (1..1000, default 100).') }).describe(
      'Payouts that need the team: the provider refused the transfer for good (invalid request, the seller’s account not able to take it, the platform’s balance short, a currency). Fix the cause, then `payouts retry`.',
    ),
  )
  .query(async ({ ctx, input }) => ({ items: await failedPayouts((await scoped(ctx, input.marketplace)).em, input.limit) }));

/** The team fixed the cause: a failed payout back to pending, and paid by the pay-seller job. */
export const retryPayoutProcedure = consoleProcedure
  .input(ZMarketplaceRef.extend({ order: z.uuid().describe('Order id of the failed payout.') }).describe('Retries a failed payout after the cause was fixed: back to pending, and the pay-seller job pays it (or fails it again, saying why).'))
  .mutation(async ({ ctx, input }) => {
    const { marketplace, em } = await scoped(ctx, input.marketplace);
    return retryPayout(em, { marketplaceId: marketplace.id, orderId: input.order }, ctx.clock.now());
  });
