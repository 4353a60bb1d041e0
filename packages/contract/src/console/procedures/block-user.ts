import { z } from 'zod';
import { consoleProcedure } from '../../trpc.js';
import { ZMarketplaceRef, cliScope, scoped } from '../console-scope.js';
import { blockUserOp, perform, unblockUserOp } from '../operations.js';

/** `users block` and `users unblock`: one procedure each, the same input. */
function blockProcedure(op: typeof blockUserOp, description: string) {
  return consoleProcedure
    .input(ZMarketplaceRef.extend({ email: z.string().min(1).max(254).describe("The user's email address (any case).") }).describe(description))
    .mutation(async ({ ctx, input }) => perform(op, cliScope(ctx, await scoped(ctx, input.marketplace)), { email: input.email }));
}

export const blockUserProcedure = blockProcedure(blockUserOp, 'Block a user: their sessions end and they get 403.');
export const unblockUserProcedure = blockProcedure(unblockUserOp, 'Unblock a user.');
