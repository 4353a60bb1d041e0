import type { z } from 'zod';
import { consoleProcedure } from '../../trpc.js';
import { ZTeamUserInput, createUserByTeam, toUserBody } from '@hm/domain/accounts';
import { ZMarketplaceRef, cliScope, scoped } from '../console-scope.js';
import { cmd, operation, perform } from '../operations.js';

/** `users create`, POST /console/v1/users: an account without a password; the worker emails a welcome sign-in link valid 7 days. */
export const createUserOp = operation({
  action: 'user.create',
  write: true,
  target: (_i, out: { user: { id: string } }) => ({ type: 'user', id: out.user.id }),
  run: async (s, input: z.output<typeof ZTeamUserInput>) => ({ user: toUserBody(await createUserByTeam(cmd(s), input)) }),
});

export const createUserProcedure = consoleProcedure
  .input(ZMarketplaceRef.extend(ZTeamUserInput.shape).describe('Create an account without a password; the worker emails a welcome sign-in link valid 7 days.'))
  .mutation(async ({ ctx, input }) => {
    const { marketplace, ...fields } = input;
    return perform(createUserOp, cliScope(ctx, await scoped(ctx, marketplace)), fields);
  });
