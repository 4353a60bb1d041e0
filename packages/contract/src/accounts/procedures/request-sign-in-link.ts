import { z } from 'zod';
import { keyProcedure } from '../../trpc.js';
import { ZEmailInput } from '@hm/domain/accounts';
import { requestSignInLink as requestSignInLinkCommand } from '@hm/domain/accounts';

export const requestSignInLink = keyProcedure
  .meta({
    auth: 'secret',
    successStatus: 202,
    problems: [429],
    requestExample: { email: 'alice@example.com' },
    openapi: {
      operationId: 'sendSignInLink',
      method: 'POST',
      path: '/sessions/email-link',
      tags: ['Accounts and sessions'],
      summary: 'Email a sign-in link',
      description:
        'Always 202, whether or not the address has an account; when it has, a sign-in link to `<storefront>/<language>/auth/sign-in?token=…` is emailed (works once, for 15 minutes). At most 5 per hour per address, then 429 with `Retry-After`.',
    },
  })
  .input(ZEmailInput)
  .output(z.void())
  .mutation(async ({ ctx, input }) => {
    await requestSignInLinkCommand(ctx, input.email);
  });
