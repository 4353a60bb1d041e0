import { sessionProcedure } from '../../trpc.js';
import { ZUpdateMeInput, ZUser } from '@hm/domain/accounts';
import { updateProfile } from '@hm/domain/accounts';
import { toUserBody } from '@hm/domain/accounts';

export const updateMe = sessionProcedure
  .meta({
    auth: 'session',
    requestExample: { display_name: 'Alice in Stockholm', bio: 'I restore mid-century chairs.' },
    openapi: { operationId: 'updateMe', method: 'PATCH', path: '/me', tags: ['Accounts and sessions'], summary: 'Update the signed-in user', description: 'Only the fields sent change. `locale` is one of the marketplace\'s languages, or empty for the default.' },
  })
  .input(ZUpdateMeInput)
  .output(ZUser)
  .mutation(async ({ ctx, input }) => toUserBody(await updateProfile(ctx.em, ctx.user, input)));
