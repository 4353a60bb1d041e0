import { z } from 'zod';
import { sessionProcedure } from '../../trpc.js';

export const endCurrentSession = sessionProcedure
  .meta({
    auth: 'session',
    successStatus: 204,
    openapi: { operationId: 'signOut', method: 'DELETE', path: '/sessions/current', tags: ['Accounts and sessions'], summary: 'Sign out', description: 'Ends the session sent in `X-User-Session`.' },
  })
  .input(z.object({}))
  .output(z.void())
  .mutation(async ({ ctx }) => {
    ctx.session.endedAt = ctx.clock.now();
    await ctx.em.flush();
  });
