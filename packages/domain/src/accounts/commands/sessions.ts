import { SessionSchema, UserSchema, type Session, type User } from '@hm/db/entities';
import type { EntityManager } from '@hm/db/orm';
import { DomainError } from '../../core/errors.js';
import { hashToken } from '../../core/secret-token.js';
import { newSessionFields, touchSession } from '../../core/session-expiry.js';

const DAY = 24 * 60 * 60 * 1000;
/** Spec (Limits): a session ends 30 days after last use and 90 days after sign-in at most. */
export const SESSION_IDLE_MS = 30 * DAY;
export const SESSION_MAX_MS = 90 * DAY;
export const SESSION_TOKEN_PREFIX = 'sess_';
const LIMITS = { idleMs: SESSION_IDLE_MS, maxMs: SESSION_MAX_MS };

export interface NewSession {
  session: Session;
  /** the only time the token exists outside the client */
  token: string;
}

export function createSession(em: EntityManager, user: User, now: Date): NewSession {
  const { token, fields } = newSessionFields(SESSION_TOKEN_PREFIX, now, LIMITS);
  return { session: em.create(SessionSchema, { marketplaceId: user.marketplaceId, userId: user.id, ...fields }), token };
}

export function toSessionBody(s: NewSession) {
  return { token: s.token, expires_at: s.session.expiresAt.toISOString() };
}

const ended = () => new DomainError('invalid_session', 'The user session has ended (signed out, expired or unknown). Sign in again.');

/**
 * `X-User-Session` → the signed-in user. An unknown, ended or expired session is 401; a blocked
 * user is 403. Each use moves the expiry (at most to 90 days after sign-in).
 */
export async function authenticateSession(em: EntityManager, token: string | undefined, now: Date): Promise<{ user: User; session: Session }> {
  if (token === undefined) throw new DomainError('session_required', 'Send the signed-in user\'s session token as "X-User-Session" (with your secret key).');
  if (!token.startsWith(SESSION_TOKEN_PREFIX) || token.length > 100) throw ended();
  const session = await em.findOne(SessionSchema, { tokenHash: hashToken(token) });
  if (!session || session.endedAt || session.expiresAt <= now) throw ended();
  const user = await em.findOne(UserSchema, { id: session.userId });
  if (!user) throw ended();
  if (user.blockedAt) throw blocked();
  if (touchSession(session, now, LIMITS)) await em.flush();
  return { user, session };
}

export function blocked(): DomainError {
  return new DomainError('user_blocked', 'This account is blocked. Contact the marketplace.');
}

/** Ends every open session of a user (password reset, block). */
export async function endAllSessions(em: EntityManager, userId: string, now: Date): Promise<number> {
  return em.nativeUpdate(SessionSchema, { userId, endedAt: null }, { endedAt: now });
}
