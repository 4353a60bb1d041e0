import { UserSchema, type User } from '@hm/db/entities';
import type { EntityManager } from '@hm/db/orm';
import type { CommandContext } from '../../core/context.js';
import { DomainError } from '../../core/errors.js';
import { countHit, lockCounter, rateLimited } from '../../core/rate-limit.js';
import { decoyHash, verifyPassword } from '../passwords.js';
import { mailLinkIfAccount } from './email-links.js';
import { redeemEmailToken } from './email-tokens.js';
import { EMAIL_LINK_LIMITS, IP_SIGN_IN_FAILURES, SIGN_IN_FAILURES, TOO_MANY_FAILURES_FROM_IP } from './limits.js';
import { blocked, createSession, type NewSession } from './sessions.js';
import { findUserByEmail, normalizeEmail } from './users.js';

type Outcome = { ok: { user: User; session: NewSession } } | { error: DomainError };

/**
 * POST /v1/sessions. Once 10 wrong passwords are in the address's 15-minute window every attempt is
 * 429 until it ends, the right password included. Unknown addresses cost the same time and count the
 * same way, so no answer tells whether an account exists. With the client's IP known, its failures
 * are counted too: 30 in 15 minutes and every attempt from it is 429, so it cannot lock more than 3
 * accounts.
 *
 * The password is checked (argon2, tens of milliseconds of CPU) with no database connection held:
 * a short read first (limits, the user), then the check, then a short transaction that locks the
 * address's counter (and the IP's), looks at the limits again and counts a failure. So concurrent
 * wrong passwords are counted exactly, and a burst of sign-ins cannot take the pool from other
 * requests (issue 24).
 */
export async function signInWithPassword(ctx: CommandContext, input: { email: string; password: string }): Promise<{ user: User; session: NewSession }> {
  const now = ctx.clock.now();
  const subject = normalizeEmail(input.email);
  const ip = ctx.clientIp;
  const over = (em: EntityManager) => limitReached(em, subject, ip, now);
  const first = await ctx.em.transactional(async (em) => ({ error: await over(em), user: await findUserByEmail(em, input.email) }));
  if (first.error) throw first.error;
  const ok = await verifyPassword(input.password, first.user?.passwordHash ?? (await decoyHash()));
  const outcome: Outcome = await ctx.em.transactional(async (em): Promise<Outcome> => {
    const error = await over(em); // locks the counters until the end of this transaction
    if (error) return { error };
    const user = ok && first.user ? await em.findOne(UserSchema, { id: first.user.id }) : null;
    // the hash checked is still the user's (a password changed meanwhile fails like a wrong one)
    if (!user || !user.passwordHash || user.passwordHash !== first.user!.passwordHash) {
      await countHit(em, SIGN_IN_FAILURES, subject, now);
      if (ip !== undefined) await countHit(em, IP_SIGN_IN_FAILURES, ip, now);
      return { error: new DomainError('invalid_credentials', 'The email address or password is wrong.') };
    }
    if (user.blockedAt) return { error: blocked() };
    const session = createSession(em, user, now);
    await em.flush();
    return { ok: { user, session } };
  });
  if ('error' in outcome) throw outcome.error;
  return outcome.ok;
}

/** Locks the address's (and the IP's) failure counter for the transaction; the 429 when either is at its limit. */
async function limitReached(em: EntityManager, subject: string, ip: string | undefined, now: Date): Promise<DomainError | undefined> {
  const lock = await lockCounter(em, SIGN_IN_FAILURES, subject, now);
  if (lock.count >= SIGN_IN_FAILURES.limit) {
    return rateLimited('Too many wrong passwords for this address. Try again in {seconds} seconds, or reset the password.', lock.windowEnd, now);
  }
  if (ip === undefined) return undefined;
  const ipLock = await lockCounter(em, IP_SIGN_IN_FAILURES, ip, now);
  return ipLock.count >= IP_SIGN_IN_FAILURES.limit ? rateLimited(TOO_MANY_FAILURES_FROM_IP, ipLock.windowEnd, now) : undefined;
}

/** POST /v1/sessions/email-link: 202 whether or not the address has an account (limit: 5 an hour per address). */
export function requestSignInLink(ctx: CommandContext, email: string): Promise<void> {
  return mailLinkIfAccount(ctx, email, { limit: EMAIL_LINK_LIMITS.sign_in, purpose: 'sign_in', template: 'sign_in_link' });
}

/** POST /v1/sessions/from-link: the link works once; following it also confirms the address. */
export async function signInWithLink(ctx: CommandContext, token: string): Promise<{ user: User; session: NewSession }> {
  const now = ctx.clock.now();
  return ctx.em.transactional(async (em) => {
    const row = await redeemEmailToken(em, token, ['sign_in', 'welcome'], now, { once: true });
    const user = await em.findOneOrFail(UserSchema, { id: row.userId });
    if (user.blockedAt) throw blocked(); // rolls back: the link is not spent
    user.emailVerifiedAt ??= now;
    const session = createSession(em, user, now);
    await em.flush();
    return { user, session };
  });
}
