import { keyProcedure } from '../../trpc.js';
import { ZSignedIn, ZSignInInput } from '@hm/domain/accounts';
import { signInWithPassword } from '@hm/domain/accounts';
import { toSessionBody } from '@hm/domain/accounts';
import { toUserBody } from '@hm/domain/accounts';

export const createSession = keyProcedure
  .meta({
    auth: 'secret',
    successStatus: 201,
    problems: [403, 429],
    requestExample: { email: 'alice@example.com', password: 'correct horse battery' },
    openapi: {
      operationId: 'signIn',
      method: 'POST',
      path: '/sessions',
      tags: ['Accounts and sessions'],
      summary: 'Sign in with a password',
      description:
        '401 `invalid_credentials` for a wrong address or password (the same answer either way). 10 wrong passwords for an address within 15 minutes lock it for the rest of that window: 429 with `Retry-After`, even for the right password. 403 `user_blocked` for a blocked account.',
    },
  })
  .input(ZSignInInput)
  .output(ZSignedIn)
  .mutation(async ({ ctx, input }) => {
    const { user, session } = await signInWithPassword(ctx, input);
    return { session: toSessionBody(session), user: toUserBody(user) };
  });
