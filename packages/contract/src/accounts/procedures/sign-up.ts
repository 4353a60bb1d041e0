import { keyProcedure } from '../../trpc.js';
import { ZSignedIn, ZSignUpInput } from '@hm/domain/accounts';
import { signUp as signUpCommand } from '@hm/domain/accounts';
import { toSessionBody } from '@hm/domain/accounts';
import { toUserBody } from '@hm/domain/accounts';

export const signUp = keyProcedure
  .meta({
    auth: 'secret',
    successStatus: 201,
    problems: [409],
    requestExample: { email: 'alice@example.com', password: 'correct horse battery', first_name: 'Alice', locale: 'en' },
    openapi: {
      operationId: 'signUp',
      method: 'POST',
      path: '/users',
      tags: ['Accounts and sessions'],
      summary: 'Sign up',
      description:
        'Creates an account and signs the user in. A confirmation email is sent. Without a password the user signs in with emailed links. 409 `email_in_use` when the address (compared case-insensitively) already has an account.',
    },
  })
  .input(ZSignUpInput)
  .output(ZSignedIn)
  .mutation(async ({ ctx, input }) => {
    const { user, session } = await signUpCommand(ctx, input);
    return { session: toSessionBody(session), user: toUserBody(user) };
  });
