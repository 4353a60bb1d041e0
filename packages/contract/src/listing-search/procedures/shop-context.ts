import type { User } from '@hm/db/entities';
import { authenticateSession } from '@hm/domain/accounts';
import type { KeyContext } from '@hm/domain/core';
import { DomainError } from '@hm/domain/core';
import { loadRateBook, RateBook, todayOf } from '@hm/domain/rates';

/**
 * Public listing reads may carry `X-User-Session` (then `favorited` appears). A session goes with a
 * secret key only, and one that has ended is a 401, as on every user request.
 */
export async function optionalUser(ctx: KeyContext): Promise<User | undefined> {
  if (!ctx.sessionToken) return undefined;
  if (ctx.apiKey.kind !== 'secret') throw new DomainError('publishable_key_not_allowed', 'X-User-Session goes with a secret key, from your server.');
  return (await authenticateSession(ctx.em, ctx.sessionToken, ctx.clock.now())).user;
}

/**
 * The day's rates, read only when a currency is asked for: without one there is no display_price,
 * and price filters are in the default currency already (an empty book converts it to itself).
 */
export const ratesToday = (ctx: KeyContext, currency: string | undefined) =>
  currency ? loadRateBook(ctx.em, ctx.marketplace, todayOf(ctx.clock.now())) : Promise.resolve(new RateBook([], ctx.marketplace.currencies[0] ?? ''));
