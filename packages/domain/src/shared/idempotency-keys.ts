import { z } from 'zod';
import { defineTask } from './tasks.js';

/**
 * Hourly: idempotency records live 24 hours (spec: Errors → Idempotency); after that the key may be
 * reused. The records themselves are written by the API's idempotency plugin (apps/api).
 */
export const purgeIdempotencyKeysTask = defineTask({
  name: 'purge-idempotency-keys',
  payload: z.object({}),
  run: async (_p, ctx) => {
    const { affectedRows } = await ctx.orm.em.getConnection().execute<{ affectedRows: number }>(`delete from idempotency_keys where created_at < now() - interval '24 hours'`, [], 'run');
    return `purged ${affectedRows} expired idempotency keys`;
  },
});
