import { z } from 'zod';
import { keyProcedure } from '../../trpc.js';
import { ZResetConfirmInput } from '@hm/domain/accounts';
import { confirmPasswordReset as confirmPasswordResetCommand } from '@hm/domain/accounts';

export const confirmPasswordReset = keyProcedure
  .meta({
    auth: 'secret',
    successStatus: 204,
    requestExample: { token: 'pr_2bC5dF8gH1jK4mN7pQ0rS3t', password: 'a new long passphrase' },
    openapi: {
      operationId: 'confirmPasswordReset',
      method: 'POST',
      path: '/password-resets/confirm',
      tags: ['Accounts and sessions'],
      summary: 'Choose a new password',
      description: 'Sets the password with the `token` of a reset link (works once) and signs the user out everywhere. 422 `link_used`, `link_expired` or `link_invalid`.',
    },
  })
  .input(ZResetConfirmInput)
  .output(z.void())
  .mutation(async ({ ctx, input }) => {
    await confirmPasswordResetCommand(ctx, input);
  });
