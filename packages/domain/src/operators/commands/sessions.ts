import { MarketplaceSchema, OperatorSchema, OperatorSessionSchema, type Marketplace, type Operator, type OperatorSession } from '@hm/db/entities';
import { tenantEm, type EntityManager, type MikroORM } from '@hm/db/orm';
import { DomainError } from '../../core/errors.js';
import { hashToken } from '../../core/secret-token.js';
import { newSessionFields, touchSession } from '../../core/session-expiry.js';
import type { OperatorSessionLookup } from '../../core/context.js';
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

/**
 * An operator session token (`ops_…`) → its operator, marketplace and an entity manager scoped to
 * it. Missing → 401 `operator_session_required`; anything else that is not a live session (an API
 * key, an ended or expired session) → 401 `invalid_operator_session`. Each use moves the expiry.
 */
export async function authenticateOperator(orm: MikroORM, token: string | undefined, now: Date, lookup: OperatorSessionLookup = (hash) => findOperatorSessionRows(orm, hash)): Promise<SignedInOperator> {
  if (token === undefined) throw new DomainError('operator_session_required', 'Sign in to the console: send "Authorization: Bearer ops_…" (the token from POST /console/v1/sessions).');
  if (!token.startsWith(OPERATOR_TOKEN_PREFIX) || token.length > 100) throw ended();
  const rows = await lookup(hashToken(token));
  if (!rows) throw ended();
  const em = tenantEm(orm, rows.marketplace.id as string);
  // the rows become the request's entities without another query (a change is flushed as usual)
  const session = em.map(OperatorSessionSchema, { ...rows.session });
  if (session.endedAt || session.expiresAt <= now) throw ended();
  const marketplace = em.map(MarketplaceSchema, { ...rows.marketplace });
  const operator = em.map(OperatorSchema, { ...rows.operator });
  if (touchSession(session, now, LIMITS)) await em.flush();
  return { operator, session, marketplace, em };
}

/** DELETE /console/v1/sessions/current. */
export async function endOperatorSession(em: EntityManager, session: OperatorSession, now: Date): Promise<void> {
  session.endedAt = now;
  await em.flush();
}
