import type { Task } from 'graphile-worker';
import { z } from 'zod';
import { crossTenantEm, type MikroORM } from '@hm/db/orm';
import { purgeOldCounters } from '@hm/domain/rate-limits';

/** Counter rows whose window ended long ago only take space. Every marketplace at once. */
export const purgeRateLimits =
  (deps: { orm: MikroORM }): Task =>
  async (payload, helpers) => {
    z.object({}).passthrough().parse(payload ?? {});
    const n = await purgeOldCounters(crossTenantEm(deps.orm));
    helpers.logger.info(`purged ${n} old rate-limit counters`);
  };
