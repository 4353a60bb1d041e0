import type { EntityManager } from '@hm/db/orm';
import { tenantSql } from '@hm/db/sql';

/** `webhook_endpoints`, `webhook_deliveries` and `webhook_attempts` (raw SQL, scoped to the marketplace). */

export interface EndpointRow {
  id: string;
  url: string;
  events: string[];
  enabled: boolean;
  secret: Buffer;
  previous_secret: Buffer | null;
  previous_secret_until: Date | null;
  failing_since: Date | null;
  disabled_reason: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface DeliveryRow {
  id: string;
  endpoint_id: string;
  event_id: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  next_attempt_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface AttemptRow {
  delivery_id: string;
  event_id: string;
  attempt: number;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  response: string | null;
  at: Date;
}

/** Raw rows may carry timestamps as strings: read them as Dates. */
const date = (v: Date | string | null) => (v === null ? null : new Date(v));
const endpointRow = (r: EndpointRow): EndpointRow => ({
  ...r,
  previous_secret_until: date(r.previous_secret_until),
  failing_since: date(r.failing_since),
  created_at: new Date(r.created_at),
  updated_at: new Date(r.updated_at),
});

const ENDPOINT = `e.id, e.url, e.events, e.enabled, e.secret, e.previous_secret, e.previous_secret_until, e.failing_since, e.disabled_reason, e.created_at, e.updated_at`;

export async function insertEndpoint(em: EntityManager, e: { id: string; url: string; events: string[]; secret: Buffer; at: Date }): Promise<void> {
  const sql = tenantSql(em);
  await sql`insert into webhook_endpoints (id, marketplace_id, url, events, enabled, secret, created_at, updated_at)
     values (${e.id}, ${sql.marketplace}, ${e.url}, ${`{${e.events.join(',')}}`}::text[], true, ${e.secret}, ${e.at}, ${e.at})`;
}

export async function findEndpoint(em: EntityManager, id: string, opts: { lock?: boolean } = {}): Promise<EndpointRow | undefined> {
  const sql = tenantSql(em);
  const [row] = await sql.query<EndpointRow>(`select ${ENDPOINT} from webhook_endpoints e where e.marketplace_id = ? and e.id = ?${opts.lock ? ' for no key update' : ''}`, [sql.marketplace, id]);
  return row && endpointRow(row);
}

export async function listEndpoints(em: EntityManager): Promise<EndpointRow[]> {
  const sql = tenantSql(em);
  return (await sql.query<EndpointRow>(`select ${ENDPOINT} from webhook_endpoints e where e.marketplace_id = ? order by e.created_at, e.id`, [sql.marketplace])).map(endpointRow);
}

export async function updateEndpoint(
  em: EntityManager,
  id: string,
  set: Partial<Pick<EndpointRow, 'url' | 'events' | 'enabled' | 'secret' | 'previous_secret' | 'previous_secret_until' | 'failing_since' | 'disabled_reason'>> & { at: Date },
): Promise<void> {
  const sql = tenantSql(em);
  const { at, ...fields } = set;
  const columns = Object.keys(fields);
  const values = Object.values(fields).map((v) => (Array.isArray(v) ? `{${v.join(',')}}` : v));
  await sql.query(`update webhook_endpoints set ${columns.map((c) => `${c} = ?${c === 'events' ? '::text[]' : ''}`).concat('updated_at = ?').join(', ')} where marketplace_id = ? and id = ?`, [...values, at, sql.marketplace, id]);
}

export async function deleteEndpoint(em: EntityManager, id: string): Promise<boolean> {
  const sql = tenantSql(em);
  const rows = await sql<{ id: string }>`delete from webhook_endpoints where marketplace_id = ${sql.marketplace} and id = ${id} returning id`;
  return rows.length > 0;
}

/** The enabled endpoints that subscribe to a type (or to `*`). */
export function endpointsFor(em: EntityManager, type: string): Promise<{ id: string }[]> {
  const sql = tenantSql(em);
  return sql<{ id: string }>`select id from webhook_endpoints where marketplace_id = ${sql.marketplace} and enabled and (${type} = any(events) or '*' = any(events))`;
}

export async function insertDelivery(em: EntityManager, d: { id: string; endpointId: string; eventId: string; at: Date }): Promise<void> {
  const sql = tenantSql(em);
  await sql`insert into webhook_deliveries (id, marketplace_id, endpoint_id, event_id, status, attempts, next_attempt_at, created_at, updated_at)
     values (${d.id}, ${sql.marketplace}, ${d.endpointId}, ${d.eventId}, 'pending', 0, ${d.at}, ${d.at}, ${d.at})`;
}

export async function findDelivery(em: EntityManager, id: string, opts: { lock?: boolean } = {}): Promise<DeliveryRow | undefined> {
  const sql = tenantSql(em);
  const [row] = await sql.query<DeliveryRow>(
    `select id, endpoint_id, event_id, status, attempts, next_attempt_at, created_at, updated_at from webhook_deliveries where marketplace_id = ? and id = ?${opts.lock ? ' for update' : ''}`,
    [sql.marketplace, id],
  );
  return row;
}

export async function updateDelivery(em: EntityManager, id: string, set: { status: DeliveryRow['status']; attempts: number; nextAttemptAt: Date | null; at: Date }): Promise<void> {
  const sql = tenantSql(em);
  await sql`update webhook_deliveries set status = ${set.status}, attempts = ${set.attempts}, next_attempt_at = ${set.nextAttemptAt}, updated_at = ${set.at}
     where marketplace_id = ${sql.marketplace} and id = ${id}`;
}

export async function insertAttempt(em: EntityManager, a: AttemptRow & { id: string; endpointId: string }): Promise<void> {
  const sql = tenantSql(em);
  await sql`insert into webhook_attempts (id, marketplace_id, delivery_id, endpoint_id, event_id, attempt, status_code, duration_ms, error, response, at)
     values (${a.id}, ${sql.marketplace}, ${a.delivery_id}, ${a.endpointId}, ${a.event_id}, ${a.attempt}, ${a.status_code}, ${a.duration_ms}, ${a.error}, ${a.response}, ${a.at})`;
}

/** An endpoint's most recent attempts, newest first (the delivery log). */
export function listAttempts(em: EntityManager, endpointId: string, limit: number): Promise<(AttemptRow & { delivery_status: DeliveryRow['status'] })[]> {
  const sql = tenantSql(em);
  return sql<AttemptRow & { delivery_status: DeliveryRow['status'] }>`select a.delivery_id, a.event_id, a.attempt, a.status_code, a.duration_ms, a.error, a.response, a.at, d.status as delivery_status
     from webhook_attempts a join webhook_deliveries d on d.marketplace_id = a.marketplace_id and d.id = a.delivery_id
     where a.marketplace_id = ${sql.marketplace} and a.endpoint_id = ${endpointId} order by a.at desc, a.attempt desc limit ${limit}`;
}
