import type { EntityManager } from '@hm/db/orm';
import { crossTenantSql, tenantSql } from '@hm/db/sql';

/** `rate_limits`: one fixed-window counter per marketplace, bucket and subject (no entity: every write is an upsert). */
export interface CounterRow {
  count: number;
  window_start: Date;
}

/** Counts one hit; a window that began at or before `staleBefore` is over, so the hit opens a new one at `now`. */
export async function upsertHit(em: EntityManager, bucket: string, subject: string, now: Date, staleBefore: Date): Promise<CounterRow> {
  const sql = tenantSql(em);
  const [row] = await sql<CounterRow>`insert into rate_limits as r (marketplace_id, bucket, subject, window_start, count)
     values (${sql.marketplace}, ${bucket}, ${subject}, ${now}, 1)
     on conflict (marketplace_id, bucket, subject) do update set
       count = case when r.window_start <= ${staleBefore} then 1 else r.count + 1 end,
       window_start = case when r.window_start <= ${staleBefore} then excluded.window_start else r.window_start end
     returning count, window_start`;
  return row!;
}

/** Locks the subject's counter until the transaction ends, creating an empty one first. */
export async function lockCounterRow(em: EntityManager, bucket: string, subject: string): Promise<CounterRow> {
  const sql = tenantSql(em);
  await sql`insert into rate_limits (marketplace_id, bucket, subject, window_start, count)
     values (${sql.marketplace}, ${bucket}, ${subject}, 'epoch', 0) on conflict do nothing`;
  const [row] = await sql<CounterRow>`select count, window_start from rate_limits
     where marketplace_id = ${sql.marketplace} and bucket = ${bucket} and subject = ${subject} for update`;
  return row!;
}

/** Forgets the subject's counter (a password reset lifts a wrong-password lock). */
export async function clearCounter(em: EntityManager, bucket: string, subject: string): Promise<void> {
  const sql = tenantSql(em);
  await sql`delete from rate_limits where marketplace_id = ${sql.marketplace} and bucket = ${bucket} and subject = ${subject}`;
}

/** Every marketplace's counters whose window began over a day ago (the longest window is an hour): they only take space. */
export async function purgeOldCounters(em: EntityManager): Promise<number> {
  const [row] = await crossTenantSql(em)<{ n: number }>`with gone as (delete from rate_limits where window_start < now() - interval '1 day' returning 1)
     select count(*)::int as n from gone`;
  return row!.n;
}
