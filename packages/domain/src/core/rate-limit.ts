import { crossTenantEm, type EntityManager } from '@hm/db/orm';
import { z } from 'zod';
import { DomainError } from './errors.js';
import { defineTask } from './tasks.js';
import { lockCounterRow, purgeOldCounters, upsertHit } from './rate-limits.queries.js';

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
export async function countHit(em: EntityManager, rule: RateLimit, subject: string, now: Date): Promise<{ count: number; windowEnd: Date }> {
  const row = await upsertHit(em, rule.bucket, subject, now, new Date(now.getTime() - rule.windowMs));
  return { count: row.count, windowEnd: new Date(new Date(row.window_start).getTime() + rule.windowMs) };
}

/**
 * Locks the subject's counter row until the transaction ends (creating an empty one first), so a
 * check-then-count sequence (e.g. verify a password, then count the failure) is exact under
 * concurrency. Returns the hits in the open window (0 when it has passed).
 */
export async function lockCounter(em: EntityManager, rule: RateLimit, subject: string, now: Date): Promise<{ count: number; windowEnd: Date }> {
  const row = await lockCounterRow(em, rule.bucket, subject);
  const windowEnd = new Date(new Date(row.window_start).getTime() + rule.windowMs);
  return windowEnd <= now ? { count: 0, windowEnd: now } : { count: row.count, windowEnd };
}

export function rateLimited(detail: string, windowEnd: Date, now: Date): DomainError {
  const seconds = Math.max(1, Math.ceil((windowEnd.getTime() - now.getTime()) / 1000));
  return new DomainError('rate_limited', detail.replace('{seconds}', String(seconds)), { retryAfterSeconds: seconds });
}

/** Counts a hit and throws 429 (Retry-After: until the window ends) when it is over `limit`. */
export async function takeToken(em: EntityManager, rule: RateLimit, subject: string, now: Date, detail: string): Promise<void> {
  const after = await countHit(em, rule, subject, now);
  if (after.count > rule.limit) throw rateLimited(detail, after.windowEnd, now);
}

/** Hourly: counter rows whose window ended long ago (the longest window is an hour) only take space. */
export const purgeRateLimitsTask = defineTask({
  name: 'purge-rate-limits',
  payload: z.object({}),
  run: async (_p, ctx) => {
    // every marketplace at once
    return `purged ${await purgeOldCounters(crossTenantEm(ctx.orm))} old rate-limit counters`;
  },
});
