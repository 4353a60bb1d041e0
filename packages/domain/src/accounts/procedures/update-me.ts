import { sessionProcedure } from '../../trpc.js';
import { ZUpdateMeInput, ZUser } from '../accounts.schema.js';
import { updateProfile } from '../commands/users.js';
import { toUserBody } from '../user.mapper.js';

export const updateMe = sessionProcedure
  .meta({
    auth: 'session',
    requestExample: { display_name: 'Alice in Stockholm', bio: 'I restore mid-century chairs.' },
    openapi: { operationId: 'updateMe', method: 'PATCH', path: '/me', tags: ['Accounts and sessions'], summary: 'Update the signed-in user', description: 'Only the fields sent change. `locale` is one of the marketplace\'s languages, or empty for the default.' },
  })
  .input(ZUpdateMeInput)
  .output(ZUser)
  .mutation(async ({ ctx, input }) => toUserBody(await updateProfile(ctx.em, ctx.user, input)));
