import type { EntityManager } from '@hm/db/orm';
import { crossTenantSql, tenantSql } from '@hm/db/sql';

/**
 * `idempotency_keys` (no entity: claimed with an insert that may lose a race, then read and updated
 * by key): one record per marketplace, scope (API key + user session) and key. Used by the API's
 * idempotency plugin; purged by a job after 24 hours.
 */
export interface IdempotencyRecord {
  fingerprint: string;
  state: string;
  response_status: number | null;
  response_headers: Record<string, string> | null;
  response_body: Buffer | null;
  created_at: Date;
  locked_at: Date;
  owner: string | null;
}

/** Claims the key for a running request of `owner` (the process lease's id, null while it holds none); false when a record is there already. */
export async function claimKey(em: EntityManager, scope: string, key: string, fingerprint: string, now: Date, owner: string | null = null): Promise<boolean> {
  const sql = tenantSql(em);
  const inserted = await sql`insert into idempotency_keys (marketplace_id, scope, key, fingerprint, state, created_at, locked_at, owner)
     values (${sql.marketplace}, ${scope}, ${key}, ${fingerprint}, 'running', ${now}, ${now}, ${owner}) on conflict do nothing returning key`;
  return inserted.length === 1;
}

export async function findKey(em: EntityManager, scope: string, key: string): Promise<IdempotencyRecord | undefined> {
  const sql = tenantSql(em);
  const [row] = await sql<IdempotencyRecord>`select fingerprint, state, response_status, response_headers, response_body, created_at, locked_at, owner
     from idempotency_keys where marketplace_id = ${sql.marketplace} and scope = ${scope} and key = ${key}`;
  return row;
}

/** Deletes the record made at `createdAt` (an expired one), not a newer one made meanwhile. */
export async function deleteKeyMadeAt(em: EntityManager, scope: string, key: string, createdAt: Date): Promise<void> {
  const sql = tenantSql(em);
  await sql`delete from idempotency_keys where marketplace_id = ${sql.marketplace} and scope = ${scope} and key = ${key} and created_at = ${createdAt}`;
}

/**
 * Takes over a running record whose claim is still the one seen at `lockedAt`, when its owner is
 * gone — `ownerLock` is the SQL of the owner's lease lock (a session advisory lock its process holds
 * while it lives): free means the process died — or, whoever the owner, it was claimed before
 * `abandonedBefore`. False when the owner is alive, or another request was faster.
 */
export async function takeOverKey(em: EntityManager, scope: string, key: string, lockedAt: Date, now: Date, opts: { owner: string | null; abandonedBefore: Date; ownerLock: string }): Promise<boolean> {
  const sql = tenantSql(em);
  const taken = await sql.query(
    `update idempotency_keys set locked_at = ?, owner = ?
      where marketplace_id = ? and scope = ? and key = ? and state = 'running' and locked_at = ?
        and (locked_at <= ? or (owner is not null and pg_try_advisory_xact_lock(${opts.ownerLock})))
      returning key`,
    [now, opts.owner, sql.marketplace, scope, key, lockedAt, opts.abandonedBefore],
  );
  return taken.length === 1;
}

/** Stores the final response of the request that holds the key. */
export async function storeResponse(em: EntityManager, scope: string, key: string, response: { status: number; headers: Record<string, string>; body: Buffer }): Promise<void> {
  const sql = tenantSql(em);
  await sql`update idempotency_keys set state = 'done', response_status = ${response.status}, response_headers = ${JSON.stringify(response.headers)}, response_body = ${response.body}
     where marketplace_id = ${sql.marketplace} and scope = ${scope} and key = ${key}`;
}

/** Releases the key (only in `state`, when given: 'running' unless a response was stored, 'done' to make it again), so the client may retry with it. */
export async function releaseKey(em: EntityManager, scope: string, key: string, opts: { state?: 'running' | 'done' } = {}): Promise<void> {
  const sql = tenantSql(em);
  await sql.query(`delete from idempotency_keys where marketplace_id = ? and scope = ? and key = ?${opts.state ? ` and state = ?` : ''}`, [sql.marketplace, scope, key, ...(opts.state ? [opts.state] : [])]);
}

/** Every marketplace's records older than 24 hours (spec: Errors → Idempotency): the key may be reused. */
export async function purgeExpiredKeys(em: EntityManager): Promise<number> {
  const [row] = await crossTenantSql(em)<{ n: number }>`with gone as (delete from idempotency_keys where created_at < now() - interval '24 hours' returning 1)
     select count(*)::int as n from gone`;
  return row!.n;
}
