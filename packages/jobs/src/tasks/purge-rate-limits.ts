import type { Task } from 'graphile-worker';
import { z } from 'zod';

/** Counter rows whose window ended long ago (the longest window is an hour) only take space. */
export const PURGE_RATE_LIMITS_SQL = `delete from rate_limits where window_start < now() - interval '1 day'`;

export const purgeRateLimits: Task = async (payload, helpers) => {
  z.object({}).passthrough().parse(payload ?? {});
  const { rowCount } = await helpers.withPgClient((client) => client.query(PURGE_RATE_LIMITS_SQL));
  helpers.logger.info(`purged ${rowCount ?? 0} old rate-limit counters`);
};
