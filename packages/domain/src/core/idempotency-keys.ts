import { z } from 'zod';
import { crossTenantEm } from '@hm/db/orm';
import { purgeExpiredKeys } from './idempotency-keys.queries.js';
import { defineTask } from './tasks.js';

/**
 * Hourly: idempotency records live 24 hours (spec: Errors → Idempotency); after that the key may be
 * reused. The records themselves are written by the API's idempotency plugin (apps/api).
 */
export const purgeIdempotencyKeysTask = defineTask({
  name: 'purge-idempotency-keys',
  payload: z.object({}),
  run: async (_p, ctx) => {
    // every marketplace at once
    return `purged ${await purgeExpiredKeys(crossTenantEm(ctx.orm))} expired idempotency keys`;
  },
});
