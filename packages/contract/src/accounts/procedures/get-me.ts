import { z } from 'zod';
import { sessionProcedure } from '../../trpc.js';
import { ZUser } from '@hm/domain/accounts';
import { toUserBody } from '@hm/domain/accounts';

export const getMe = sessionProcedure
  .meta({ auth: 'session', openapi: { operationId: 'getMe', method: 'GET', path: '/me', tags: ['Accounts and sessions'], summary: 'Get the signed-in user', description: 'The user of `X-User-Session`: profile, language and whether the email address is confirmed. An ended or expired session answers 401.' } })
  .input(z.object({}))
  .output(ZUser)
  .query(({ ctx }) => toUserBody(ctx.user));
