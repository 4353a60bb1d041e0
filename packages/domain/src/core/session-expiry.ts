import { hashToken, newSecretToken } from './secret-token.js';

/** Sliding session lifetimes (users' and operators' sessions): an idle limit after the last use, a hard one after sign-in. */
export interface SessionLimits {
  idleMs: number;
  maxMs: number;
}

/** Using a session moves its expiry; writing that at most once a minute keeps reads cheap. */
const TOUCH_AFTER_MS = 60 * 1000;

export function sessionExpiry(s: { createdAt: Date; lastUsedAt: Date }, limits: SessionLimits): Date {
  return new Date(Math.min(s.lastUsedAt.getTime() + limits.idleMs, s.createdAt.getTime() + limits.maxMs));
}

/** Whether a use of the session now would be recorded (touchSession would change the row). */
export function touchDue(s: { lastUsedAt: Date }, now: Date): boolean {
  return now.getTime() - s.lastUsedAt.getTime() >= TOUCH_AFTER_MS;
}

/** Records a use of the session (at most once a minute); true when the row changed and needs a flush. */
export function touchSession(s: { createdAt: Date; lastUsedAt: Date; expiresAt: Date }, now: Date, limits: SessionLimits): boolean {
  if (!touchDue(s, now)) return false;
  s.lastUsedAt = now;
  s.expiresAt = sessionExpiry(s, limits);
  return true;
}

/** A new session's token (returned once) and the columns every session row shares: only the token's hash is kept. */
export function newSessionFields(prefix: string, now: Date, limits: SessionLimits) {
  const token = newSecretToken(prefix);
  return { token, fields: { tokenHash: hashToken(token), createdAt: now, lastUsedAt: now, expiresAt: sessionExpiry({ createdAt: now, lastUsedAt: now }, limits), endedAt: null } };
}
