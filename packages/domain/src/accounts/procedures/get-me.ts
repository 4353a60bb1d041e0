import { z } from 'zod';
import { sessionProcedure } from '../../trpc.js';
import { ZUser } from '../accounts.schema.js';
import { toUserBody } from '../user.mapper.js';

export const getMe = sessionProcedure
  .meta({ auth: 'session', openapi: { method: 'GET', path: '/me', tags: ['Accounts and sessions'], summary: 'Get the signed-in user' } })
  .input(z.object({}))
  .output(ZUser)
  .query(({ ctx }) => toUserBody(ctx.user));
