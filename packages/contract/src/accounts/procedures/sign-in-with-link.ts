import { keyProcedure } from '../../trpc.js';
import { ZSignedIn, ZTokenInput } from '@hm/domain/accounts';
import { signInWithLink as signInWithLinkCommand } from '@hm/domain/accounts';
import { toSessionBody } from '@hm/domain/accounts';
import { toUserBody } from '@hm/domain/accounts';

export const signInWithLink = keyProcedure
  .meta({
    auth: 'secret',
    successStatus: 201,
    problems: [403],
    requestExample: { token: 'sl_4kQn2r8ZxW7vT1bY9cPdLm3e' },
    openapi: {
      operationId: 'signInWithLink',
      method: 'POST',
      path: '/sessions/from-link',
      tags: ['Accounts and sessions'],
      summary: 'Sign in with an emailed link',
      description:
        'Exchanges the `token` of a sign-in link (or a welcome email) for a session; it works once and also confirms the address. 422 `link_used`, `link_expired` or `link_invalid`; 403 `user_blocked`.',
    },
  })
  .input(ZTokenInput)
  .output(ZSignedIn)
  .mutation(async ({ ctx, input }) => {
    const { user, session } = await signInWithLinkCommand(ctx, input.token);
    return { session: toSessionBody(session), user: toUserBody(user) };
  });
