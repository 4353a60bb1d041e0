import type { Task } from 'graphile-worker';
import { z } from 'zod';
import { crossTenantEm, type MikroORM } from '@hm/db/orm';
import { purgeExpiredKeys } from '@hm/domain/idempotency-keys';

const ZPayload = z.object({}).passthrough();

/** Idempotency records live 24 hours (spec: Errors → Idempotency); after that the key may be reused. Every marketplace at once. */
export const purgeIdempotencyKeys =
  (deps: { orm: MikroORM }): Task =>
  async (payload, helpers) => {
    ZPayload.parse(payload ?? {});
    const n = await purgeExpiredKeys(crossTenantEm(deps.orm));
    helpers.logger.info(`purged ${n} expired idempotency keys`);
  };
