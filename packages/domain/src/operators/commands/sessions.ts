import { MarketplaceSchema, OperatorSchema, OperatorSessionSchema, type Marketplace, type Operator, type OperatorSession } from '@hm/db/entities';
import { tenantEm, type EntityManager, type MikroORM } from '@hm/db/orm';
import { DomainError } from '../../core/errors.js';
import { hashToken } from '../../core/secret-token.js';
import { newSessionFields, touchDue, touchSession } from '../../core/session-expiry.js';
import type { OperatorSessionLookup, OperatorSessionRows } from '../../core/context.js';
import { findOperatorSessionRows } from '../sessions.queries.js';
import { OPERATOR_SESSION_IDLE_MS, OPERATOR_SESSION_MAX_MS, OPERATOR_TOKEN_PREFIX } from '../limits.js';

const LIMITS = { idleMs: OPERATOR_SESSION_IDLE_MS, maxMs: OPERATOR_SESSION_MAX_MS };

/** A new session (flushed by the caller's transaction); the token exists outside the client only now. */
export function createOperatorSession(em: EntityManager, operator: Operator, now: Date): { session: OperatorSession; token: string } {
  const { token, fields } = newSessionFields(OPERATOR_TOKEN_PREFIX, now, LIMITS);
  return { session: em.create(OperatorSessionSchema, { marketplaceId: operator.marketplaceId, operatorId: operator.id, ...fields }), token };
}

const ended = () => new DomainError('invalid_operator_session', 'The operator session has ended (signed out, expired or unknown), or this is not an operator session token. Sign in again.');

export interface SignedInOperator {
  operator: Operator;
  session: OperatorSession;
  marketplace: Marketplace;
  em: EntityManager;
}

/** Entities made once from one answer of the lookup (kept by the API per process for up to a second), for reads. */
const readOnly = new WeakMap<OperatorSessionRows, Omit<SignedInOperator, 'em'>>();

/**
 * An operator session token (`ops_…`) → its operator, marketplace and an entity manager scoped to
 * it. Missing → 401 `operator_session_required`; anything else that is not a live session (an API
 * key, an ended or expired session) → 401 `invalid_operator_session`. Each use moves the expiry.
 *
 * `read`: for a request that changes nothing (a query). Its session, operator and marketplace are
 * then made once per answer of `lookup` and shared by the reads that get the same answer — as /v1
 * reads share the marketplace of a remembered API key — instead of being mapped into the request's
 * entity manager each time (most of a small page's CPU); not to be changed. When the use must be
 * recorded (touchDue), the request maps and flushes its own as any other.
 */
export async function authenticateOperator(
  orm: MikroORM,
  token: string | undefined,
  now: Date,
  lookup: OperatorSessionLookup = (hash) => findOperatorSessionRows(orm, hash),
  opts: { read?: boolean } = {},
): Promise<SignedInOperator> {
  if (token === undefined) throw new DomainError('operator_session_required', 'Sign in to the console: send "Authorization: Bearer ops_…" (the token from POST /console/v1/sessions).');
  if (!token.startsWith(OPERATOR_TOKEN_PREFIX) || token.length > 100) throw ended();
  const rows = await lookup(hashToken(token));
  if (!rows) throw ended();
  const em = tenantEm(orm, rows.marketplace.id as string);
  if (opts.read) {
    let shared = readOnly.get(rows);
    if (!shared) readOnly.set(rows, (shared = mapped(tenantEm(orm, rows.marketplace.id as string), rows)));
    if (shared.session.endedAt || shared.session.expiresAt <= now) throw ended();
    if (!touchDue(shared.session, now)) return { ...shared, em };
  }
  // the rows become the request's entities without another query (a change is flushed as usual)
  const { session, operator, marketplace } = mapped(em, rows);
  if (session.endedAt || session.expiresAt <= now) throw ended();
  if (touchSession(session, now, LIMITS)) await em.flush();
  return { operator, session, marketplace, em };
}

function mapped(em: EntityManager, rows: OperatorSessionRows): Omit<SignedInOperator, 'em'> {
  return { session: em.map(OperatorSessionSchema, { ...rows.session }), marketplace: em.map(MarketplaceSchema, { ...rows.marketplace }), operator: em.map(OperatorSchema, { ...rows.operator }) };
}

/** DELETE /console/v1/sessions/current. */
export async function endOperatorSession(em: EntityManager, session: OperatorSession, now: Date): Promise<void> {
  session.endedAt = now;
  await em.flush();
}
