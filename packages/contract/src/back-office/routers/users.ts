import { z } from 'zod';
import { listUsersForTeam, toUserBody, ZTeamUserInput } from '@hm/domain/accounts';
import { router } from '../../trpc.js';
import { blockUserOp, perform, unblockUserOp } from '../../console/operations.js';
import { createUserOp } from '../../console/procedures/create-user.js';
import { operatorProcedure } from '../procedure.js';
import { openapi, read, write, ZId } from '../meta.js';
import { ZAnyObject, ZPage, ZPaging } from '../schemas.js';

const ZUserOut = z.object({ user: ZAnyObject });

export const users = router({
  list: operatorProcedure
    .meta(read(openapi('GET', '/users', 'Users', 'Find users', 'By exact address (`email`, any case), else every user, the newest first; pass `next_cursor` back as `cursor` for the next page (absent on the last).')))
    .input(z.strictObject({ email: z.string().max(254).optional(), ...ZPaging }))
    .output(ZPage(ZAnyObject))
    .query(async ({ ctx, input }) => {
      const page = await listUsersForTeam(ctx.scope.em, ctx.scope.marketplace.id, input);
      return { items: page.items.map((u) => ({ ...toUserBody(u), blocked: u.blockedAt !== null && u.blockedAt !== undefined })), ...(page.nextCursor ? { next_cursor: page.nextCursor } : {}) };
    }),
  block: operatorProcedure
    .meta(write(openapi('POST', '/users/{id}/block', 'Users', 'Block', 'Their sessions end and their listings leave the shop.'), { problems: [403] }))
    .input(ZId)
    .output(ZUserOut)
    .mutation(({ ctx, input }) => perform(blockUserOp, ctx.scope, input)),
  unblock: operatorProcedure
    .meta(write(openapi('POST', '/users/{id}/unblock', 'Users', 'Unblock', 'The user may sign in again; their listings return to the shop.'), { problems: [403] }))
    .input(ZId)
    .output(ZUserOut)
    .mutation(({ ctx, input }) => perform(unblockUserOp, ctx.scope, input)),
  create: operatorProcedure
    .meta(
      write(openapi('POST', '/users', 'Users', 'Create a user', 'Admins only. An account without a password; the user is emailed a welcome sign-in link valid 7 days. 409 `email_in_use` for an address already in the marketplace.'), {
        successStatus: 201,
        problems: [409],
        requestExample: { email: 'kim@example.com', first_name: 'Kim', locale: 'en' },
      }),
    )
    .input(ZTeamUserInput)
    .output(ZUserOut)
    .mutation(({ ctx, input }) => perform(createUserOp, ctx.scope, input)),
});
