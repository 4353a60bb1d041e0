import type { EntityManager } from '@hm/db/orm';
import { z } from 'zod';
import { DomainError } from '../errors.js';
import { defineTask } from './tasks.js';

export interface RateLimit {
  bucket: string;
  limit: number;
  windowMs: number;
}

/**
 * Fixed-window counters in Postgres: a window opens with the first hit for a subject and lasts
 * `windowMs`; once `limit` hits are in it, further attempts wait for its end. Each update is one
 * atomic upsert, so concurrent requests are counted exactly.
 */
export async function countHit(em: EntityManager, marketplaceId: string, rule: RateLimit, subject: string, now: Date): Promise<{ count: number; windowEnd: Date }> {
  const windowStart = new Date(now.getTime() - rule.windowMs);
  const [row] = await em.execute<{ count: number; window_start: Date }[]>(
    `insert into rate_limits as r (marketplace_id, bucket, subject, window_start, count) values (?, ?, ?, ?, 1)
     on conflict (marketplace_id, bucket, subject) do update set
       count = case when r.window_start <= ? then 1 else r.count + 1 end,
       window_start = case when r.window_start <= ? then excluded.window_start else r.window_start end
     returning count, window_start`,
    [marketplaceId, rule.bucket, subject, now, windowStart, windowStart],
  );
  return { count: row!.count, windowEnd: new Date(new Date(row!.window_start).getTime() + rule.windowMs) };
}

/**
 * Locks the subject's counter row until the transaction ends (creating an empty one first), so a
 * check-then-count sequence (e.g. verify a password, then count the failure) is exact under
 * concurrency. Returns the hits in the open window (0 when it has passed).
 */
export async function lockCounter(em: EntityManager, marketplaceId: string, rule: RateLimit, subject: string, now: Date): Promise<{ count: number; windowEnd: Date }> {
  await em.execute(
    `insert into rate_limits (marketplace_id, bucket, subject, window_start, count) values (?, ?, ?, 'epoch', 0) on conflict do nothing`,
    [marketplaceId, rule.bucket, subject],
  );
  const [row] = await em.execute<{ count: number; window_start: Date }[]>(
    `select count, window_start from rate_limits where marketplace_id = ? and bucket = ? and subject = ? for update`,
    [marketplaceId, rule.bucket, subject],
  );
  const windowEnd = new Date(new Date(row!.window_start).getTime() + rule.windowMs);
  return windowEnd <= now ? { count: 0, windowEnd: now } : { count: row!.count, windowEnd };
}

export function rateLimited(detail: string, windowEnd: Date, now: Date): DomainError {
  const seconds = Math.max(1, Math.ceil((windowEnd.getTime() - now.getTime()) / 1000));
  return new DomainError('rate_limited', detail.replace('{seconds}', String(seconds)), { headers: { 'Retry-After': String(seconds) } });
}

/** Counts a hit and throws 429 (Retry-After: until the window ends) when it is over `limit`. */
export async function takeToken(em: EntityManager, marketplaceId: string, rule: RateLimit, subject: string, now: Date, detail: string): Promise<void> {
  const after = await countHit(em, marketplaceId, rule, subject, now);
  if (after.count > rule.limit) throw rateLimited(detail, after.windowEnd, now);
}

/** Hourly: counter rows whose window ended long ago (the longest window is an hour) only take space. */
export const purgeRateLimitsTask = defineTask({
  name: 'purge-rate-limits',
  payload: z.object({}),
  run: async (_p, ctx) => {
    const { affectedRows } = await ctx.orm.em.getConnection().execute<{ affectedRows: number }>(`delete from rate_limits where window_start < now() - interval '1 day'`, [], 'run');
    return `purged ${affectedRows} old rate-limit counters`;
  },
});
