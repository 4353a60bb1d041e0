import { EmailTokenSchema, UserSchema } from '@hm/db/entities';
import type { CommandContext } from '../../core/context.js';
import { hashPassword } from '../passwords.js';
import { mailLinkIfAccount } from './email-links.js';
import { redeemEmailToken } from './email-tokens.js';
import { EMAIL_LINK_LIMITS, SIGN_IN_FAILURES } from './limits.js';
import { clearCounter } from '../../core/rate-limits.queries.js';
import { endAllSessions } from './sessions.js';

/** POST /v1/password-resets: 202 whether or not the address has an account (limit: 5 an hour per address). */
export function requestPasswordReset(ctx: CommandContext, email: string): Promise<void> {
  return mailLinkIfAccount(ctx, email, { limit: EMAIL_LINK_LIMITS.reset_password, purpose: 'reset_password', template: 'password_reset' });
}

/**
 * POST /v1/password-resets/confirm: sets the password and signs the user out everywhere. The link
 * works once (and the user's other reset links stop working); it proves the address, so it also
 * confirms it and lifts a wrong-password lock on it.
 */
export async function confirmPasswordReset(ctx: CommandContext, input: { token: string; password: string }): Promise<void> {
  const passwordHash = await hashPassword(input.password);
  const now = ctx.clock.now();
  await ctx.em.transactional(async (em) => {
    const row = await redeemEmailToken(em, input.token, ['reset_password'], now, { once: true });
    const user = await em.findOneOrFail(UserSchema, { id: row.userId });
    user.passwordHash = passwordHash;
    user.emailVerifiedAt ??= now;
    await em.flush();
    await em.nativeUpdate(EmailTokenSchema, { userId: user.id, purpose: 'reset_password', usedAt: null }, { usedAt: now });
    await endAllSessions(em, user.id, now);
    await clearCounter(em, SIGN_IN_FAILURES.bucket, user.emailNormalized);
  });
}
