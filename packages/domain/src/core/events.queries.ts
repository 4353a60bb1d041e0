import type { EntityManager } from '@hm/db/orm';
import { crossTenantSql, tenantSql } from '@hm/db/sql';

/** `events` and `event_counters` (no entities: a sequence comes from the counter, better said in SQL). */

export interface EventRow {
  sequence: string;
  id: string;
  type: string;
  data: { object: Record<string, unknown>; previous_attributes?: Record<string, unknown> };
  created_at: Date | string;
}

/**
 * Appends an event with the marketplace's next sequence. The counter's row stays locked until the
 * transaction ends (as message ids do), so sequences are gapless in commit order: a reader that saw
 * sequence n never later finds an n' < n committed behind it, and a rolled-back change leaves no event.
 */
export async function insertEvent(em: EntityManager, e: { id: string; type: string; data: EventRow['data']; at: Date }): Promise<EventRow> {
  const sql = tenantSql(em);
  const [{ sequence }] = (await sql<{ sequence: string }>`insert into event_counters (marketplace_id, last_sequence) values (${sql.marketplace}, 1)
     on conflict (marketplace_id) do update set last_sequence = event_counters.last_sequence + 1 returning last_sequence::text as sequence`) as [{ sequence: string }];
  await sql`insert into events (marketplace_id, sequence, id, type, data, created_at) values (${sql.marketplace}, ${sequence}, ${e.id}, ${e.type}, ${JSON.stringify(e.data)}::jsonb, ${e.at})`;
  return { sequence, id: e.id, type: e.type, data: e.data, created_at: e.at };
}

/** The feed: events after a sequence, oldest first, optionally of some types only. Ordered by the bigint column (`e.sequence`). */
export function listEvents(em: EntityManager, page: { after: number; types: string[]; limit: number }): Promise<EventRow[]> {
  const sql = tenantSql(em);
  const types = page.types.length ? ' and e.type = any(?::text[])' : '';
  return sql.query<EventRow>(
    `select e.sequence::text as sequence, e.id, e.type, e.data, e.created_at from events e
      where e.marketplace_id = ? and e.sequence > ?${types} order by e.sequence limit ?`,
    [sql.marketplace, page.after, ...(page.types.length ? [`{${page.types.join(',')}}`] : []), page.limit],
  );
}

/** One event by id (a webhook delivery or replay reads what it sends). */
export async function findEvent(em: EntityManager, id: string): Promise<EventRow | undefined> {
  const sql = tenantSql(em);
  const [row] = await sql<EventRow>`select e.sequence::text as sequence, e.id, e.type, e.data, e.created_at from events e where e.marketplace_id = ${sql.marketplace} and e.id = ${id}`;
  return row;
}

/** Every marketplace's events older than `before` (kept 30 days). */
export async function purgeEventsBefore(em: EntityManager, before: Date): Promise<number> {
  const [row] = await crossTenantSql(em)<{ n: number }>`with gone as (delete from events where created_at < ${before} returning 1) select count(*)::int as n from gone`;
  return row!.n;
}
