import { z } from 'zod';
import { sessionProcedure } from '../../trpc.js';
import { sendVerificationEmail as sendVerificationEmailCommand } from '@hm/domain/accounts';

export const sendVerificationEmail = sessionProcedure
  .meta({
    auth: 'session',
    successStatus: 202,
    problems: [429],
    requestExample: {},
    openapi: {
      operationId: 'sendVerificationEmail',
      method: 'POST',
      path: '/me/verification-email',
      tags: ['Accounts and sessions'],
      summary: 'Send the confirmation email again',
      description: 'Does nothing when the address is already confirmed. At most 5 confirmation emails per hour per address, then 429 with `Retry-After`.',
    },
  })
  .input(z.object({}))
  .output(z.void())
  .mutation(async ({ ctx }) => {
    await sendVerificationEmailCommand(ctx, ctx.user);
  });
