import { consoleProcedure } from '../../trpc.js';
import { ZTeamUserInput } from '@hm/domain/accounts';
import { createUserByTeam } from '@hm/domain/accounts';
import { toUserBody } from '@hm/domain/accounts';
import { ZMarketplaceRef, scoped } from '../console-scope.js';

export const createUserProcedure = consoleProcedure
  .input(ZMarketplaceRef.extend(ZTeamUserInput.shape).describe('Create an account without a password; the worker emails a welcome sign-in link valid 7 days.'))
  .mutation(async ({ ctx, input }) => {
    const { marketplace: slug, ...fields } = input;
    const { marketplace, em } = await scoped(ctx, slug);
    return { user: toUserBody(await createUserByTeam({ ...ctx, em, marketplace }, fields)) };
  });
