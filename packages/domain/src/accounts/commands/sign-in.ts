import { UserSchema, type User } from '@hm/db/entities';
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
 * POST /v1/sessions. The address's failure counter is locked for the attempt, so concurrent wrong
 * passwords are counted exactly; once 10 are in the 15-minute window every attempt is 429 until it
 * ends, the right password included. Unknown addresses cost the same time and count the same way,
 * so no answer tells whether an account exists. Failures are committed, then the error is thrown.
 * With the client's IP known, its failures are counted too (locked the same way, after the address's
 * counter): 30 in 15 minutes and every attempt from it is 429, so it cannot lock more than 3 accounts.
 */
export async function signInWithPassword(ctx: CommandContext, input: { email: string; password: string }): Promise<{ user: User; session: NewSession }> {
  const now = ctx.clock.now();
  const subject = normalizeEmail(input.email);
  const outcome: Outcome = await ctx.em.transactional(async (em): Promise<Outcome> => {
    const lock = await lockCounter(em, SIGN_IN_FAILURES, subject, now);
    if (lock.count >= SIGN_IN_FAILURES.limit) {
      return { error: rateLimited('Too many wrong passwords for this address. Try again in {seconds} seconds, or reset the password.', lock.windowEnd, now) };
    }
    const ip = ctx.clientIp;
    if (ip !== undefined) {
      const ipLock = await lockCounter(em, IP_SIGN_IN_FAILURES, ip, now);
      if (ipLock.count >= IP_SIGN_IN_FAILURES.limit) return { error: rateLimited(TOO_MANY_FAILURES_FROM_IP, ipLock.windowEnd, now) };
    }
    const user = await findUserByEmail(em, input.email);
    const ok = await verifyPassword(input.password, user?.passwordHash ?? (await decoyHash()));
    if (!user || !user.passwordHash || !ok) {
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
