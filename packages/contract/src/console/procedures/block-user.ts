import { z } from 'zod';
import { consoleProcedure } from '../../trpc.js';
import { setUserBlocked } from '@hm/domain/accounts';
import { toUserBody } from '@hm/domain/accounts';
import { ZMarketplaceRef, scoped } from '../console-scope.js';

/** `users block` and `users unblock`: one procedure each, the same input. */
function blockProcedure(blocked: boolean, description: string) {
  return consoleProcedure
    .input(ZMarketplaceRef.extend({ email: z.string().min(1).max(254).describe("The user's email address (any case).") }).describe(description))
    .mutation(async ({ ctx, input }) => {
      const { marketplace, em } = await scoped(ctx, input.marketplace);
      return { user: { ...toUserBody(await setUserBlocked({ ...ctx, em, marketplace }, input.email, blocked)), blocked } };
    });
}

export const blockUserProcedure = blockProcedure(true, "Block a user: their sessions end and they get 403.");
export const unblockUserProcedure = blockProcedure(false, 'Unblock a user.');
