import { AuditEntrySchema, type AuditEntry } from '@hm/db/entities';
import type { EntityManager } from '@hm/db/orm';
import { keyset } from '../../core/keyset.js';
import { entityRows } from '../../core/entity-rows.js';
import { latestFirstRows, type RowFilter } from '../../core/latest-first.queries.js';

/** Who did it: a signed-in operator, or the command line (`npm run console`). */
export type Actor = { type: 'operator'; id: string | null; email: string } | { type: 'cli' };
export const CLI_ACTOR: Actor = { type: 'cli' };

export interface AuditRecord {
  actor: Actor;
  action: string;
  target: { type: string; id: string };
  data: unknown;
  requestId: string;
  at: Date;
}

/** Inputs never keep these: passwords, two-factor codes and secrets, tokens. */
const SECRET_KEYS = /^(password|code|token|secret|otpauth_url|client_secret)$/i;

/** The input as stored in the trail: secrets left out at any depth, bytes as their length. */
export function withoutSecrets(value: unknown): unknown {
  if (Buffer.isBuffer(value)) return { bytes: value.length };
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).filter(([k]) => !SECRET_KEYS.test(k)).map(([k, v]) => [k, withoutSecrets(v)]));
  }
  return value;
}

/** Appends one row to the marketplace's trail (the database refuses to change or delete it). */
export async function appendAudit(em: EntityManager, marketplaceId: string, r: AuditRecord): Promise<void> {
  const data = withoutSecrets(r.data ?? {});
  em.create(AuditEntrySchema, {
    marketplaceId,
    createdAt: r.at,
    actorType: r.actor.type,
    actorId: r.actor.type === 'operator' ? r.actor.id : null,
    actorEmail: r.actor.type === 'operator' ? r.actor.email : null,
    action: r.action,
    targetType: r.target.type,
    targetId: r.target.id,
    data: (data && typeof data === 'object' && !Array.isArray(data) ? data : { value: data }) as Record<string, unknown>,
    requestId: r.requestId,
  });
  await em.flush();
}

export interface AuditFilter {
  limit: number;
  cursor?: string;
  operator?: string;
  action?: string;
  target_type?: string;
  target_id?: string;
  from?: string;
  to?: string;
}

/** `audit_entries` rows → entry-shaped objects (not entities: the trail is only ever read or appended). */
const auditRows = entityRows<AuditEntry>(AuditEntrySchema);

/** The trail, newest first, keyset-paged on (created_at, id); filters by operator id, action, target and time; plain rows (one statement). */
export async function listAudit(em: EntityManager, marketplaceId: string, f: AuditFilter): Promise<{ items: AuditEntry[]; nextCursor?: string }> {
  const pages = keyset(JSON.stringify(['audit', marketplaceId, f.operator ?? '', f.action ?? '', f.target_type ?? '', f.target_id ?? '', f.from ?? '', f.to ?? '']), ['timestamptz', 'uuid']);
  const after = pages.after(f.cursor);
  const filters: RowFilter[] = [];
  if (f.operator) filters.push(['actor_id = ?', f.operator]);
  if (f.action) filters.push(['action = ?', f.action]);
  if (f.target_type) filters.push(['target_type = ?', f.target_type]);
  if (f.target_id) filters.push(['target_id = ?', f.target_id]);
  if (f.from) filters.push(['created_at >= ?', new Date(f.from)]);
  if (f.to) filters.push(['created_at < ?', new Date(f.to)]);
  const rows = await latestFirstRows(em, 'audit_entries', 'created_at', filters, after && [new Date(after[0]), after[1]], f.limit + 1);
  return pages.page(auditRows(em, rows), f.limit, (e) => [e.createdAt, e.id]);
}

export function toAuditBody(e: AuditEntry) {
  return {
    id: e.id,
    at: e.createdAt.toISOString(),
    actor: e.actorType === 'cli' ? { type: 'cli' as const } : { type: 'operator' as const, ...(e.actorId ? { id: e.actorId } : {}), ...(e.actorEmail ? { email: e.actorEmail } : {}) },
    action: e.action,
    target: { type: e.targetType, id: e.targetId },
    data: e.data,
    request_id: e.requestId,
  };
}
