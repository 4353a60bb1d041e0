import type { User } from '@hm/db/entities';
import { authenticateSession } from '../../accounts/commands/sessions.js';
import type { KeyContext } from '../../context.js';
import { DomainError } from '../../errors.js';
import { loadRateBook, todayOf } from '../../rates/rate-book.js';

/**
 * Public listing reads may carry `X-User-Session` (then `favorited` appears). A session goes with a
 * secret key only, and one that has ended is a 401, as on every user request.
 */
export async function optionalUser(ctx: KeyContext): Promise<User | undefined> {
  if (!ctx.sessionToken) return undefined;
  if (ctx.apiKey.kind !== 'secret') throw new DomainError('publishable_key_not_allowed', 'X-User-Session goes with a secret key, from your server.');
  return (await authenticateSession(ctx.em, ctx.sessionToken, ctx.clock.now())).user;
}

export const ratesToday = (ctx: KeyContext) => loadRateBook(ctx.em, ctx.marketplace, todayOf(ctx.clock.now()));
