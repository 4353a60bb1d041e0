import type { Task } from 'graphile-worker';
import { z } from 'zod';

/** Idempotency records live 24 hours (spec: Errors → Idempotency); after that the key may be reused. */
export const PURGE_IDEMPOTENCY_SQL = `delete from idempotency_keys where created_at < now() - interval '24 hours'`;

const ZPayload = z.object({}).passthrough();

export const purgeIdempotencyKeys: Task = async (payload, helpers) => {
  ZPayload.parse(payload ?? {});
  const { rowCount } = await helpers.withPgClient((client) => client.query(PURGE_IDEMPOTENCY_SQL));
  helpers.logger.info(`purged ${rowCount ?? 0} expired idempotency keys`);
};
