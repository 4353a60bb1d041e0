import { keyProcedure } from '../../trpc.js';
import { ZTokenInput, ZUser } from '@hm/domain/accounts';
import { verifyEmail as verifyEmailCommand } from '@hm/domain/accounts';
import { toUserBody } from '@hm/domain/accounts';

export const verifyEmail = keyProcedure
  .meta({
    auth: 'secret',
    requestExample: { token: 'ev_7hJk3mN9pQ2rS5tV8wX1yZ4a' },
    openapi: {
      operationId: 'confirmEmail',
      method: 'POST',
      path: '/email-verifications',
      tags: ['Accounts and sessions'],
      summary: 'Confirm an email address',
      description: 'The `token` of a confirmation link (valid 24 hours; following it again within that time is harmless). 422 `link_expired` or `link_invalid`.',
    },
  })
  .input(ZTokenInput)
  .output(ZUser)
  .mutation(async ({ ctx, input }) => toUserBody(await verifyEmailCommand(ctx, input.token)));
