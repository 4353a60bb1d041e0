import { z } from 'zod';
import { keyProcedure } from '../../trpc.js';
import { ZEmailInput } from '@hm/domain/accounts';
import { requestPasswordReset as requestPasswordResetCommand } from '@hm/domain/accounts';

export const requestPasswordReset = keyProcedure
  .meta({
    auth: 'secret',
    successStatus: 202,
    problems: [429],
    requestExample: { email: 'alice@example.com' },
    openapi: {
      operationId: 'requestPasswordReset',
      method: 'POST',
      path: '/password-resets',
      tags: ['Accounts and sessions'],
      summary: 'Email a password reset link',
      description:
        'Always 202, whether or not the address has an account; when it has, a link to `<storefront>/<language>/auth/reset-password?token=…` is emailed (valid 1 hour). At most 5 per hour per address, then 429 with `Retry-After`.',
    },
  })
  .input(ZEmailInput)
  .output(z.void())
  .mutation(async ({ ctx, input }) => {
    await requestPasswordResetCommand(ctx, input.email);
  });
