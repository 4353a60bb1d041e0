/** Whether a caller's key (and user session) may call a procedure of its level: asked by the procedures and, before any body is read, by the HTTP layer. */

import { tenantEm } from '@hm/db/orm';
import type { AuthenticatedKey, Context } from '@hm/domain/core';
import { withMarketplace } from '@hm/domain/core';
import { authenticateSession } from '@hm/domain/accounts';
import { DomainError } from './problems.js';
import type { AuthLevel } from './procedure-meta.js';

/**
 * Whether a key may call a procedure of `level`, decided before any input is read. The HTTP layer
 * asks the same question before it reads a request body, so a refused caller costs no upload.
 */
export function keyRefusal(level: AuthLevel, auth: Context['auth']): DomainError | undefined {
  if (level === 'none' || level === 'operator') return undefined;
  if (auth === undefined) return new DomainError('api_key_required', 'Send your API key as "Authorization: Bearer <key>".');
  if (auth instanceof DomainError) return auth;
  if ((level === 'secret' || level === 'session') && auth.kind === 'publishable') {
    return new DomainError('publishable_key_not_allowed', 'Publishable keys may read public data only; use a secret key from your server.');
  }
  return undefined;
}

/** A session token checked as `sessionProcedure` does: its user's id, or why it is refused. */
async function checkSession(orm: Context['orm'], auth: AuthenticatedKey, token: string | undefined, now: Date): Promise<string | DomainError> {
  try {
    const { user } = await withMarketplace(auth.marketplace, () => authenticateSession(tenantEm(orm, auth.marketplace.id), token, now));
    return user.id;
  } catch (e) {
    if (e instanceof DomainError) return e;
    throw e;
  }
}

/** The user of a live session (undefined when the session has ended, is unknown or the user is blocked). */
export async function sessionUserId(orm: Context['orm'], auth: AuthenticatedKey, token: string, now: Date): Promise<string | undefined> {
  const checked = await checkSession(orm, auth, token, now);
  return checked instanceof DomainError ? undefined : checked;
}

/**
 * `sessionProcedure`'s check of `X-User-Session` (missing, ended, expired → 401; blocked → 403), for
 * the HTTP layer: an upload is refused before its body, an idempotent replay only outlives nothing.
 */
export async function sessionRefusal(orm: Context['orm'], auth: AuthenticatedKey, token: string | undefined, now: Date): Promise<DomainError | undefined> {
  const checked = await checkSession(orm, auth, token, now);
  return checked instanceof DomainError ? checked : undefined;
}
