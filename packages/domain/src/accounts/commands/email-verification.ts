import { UserSchema, type User } from '@hm/db/entities';
import type { CommandContext } from '../../core/context.js';
import { queueAccountEmail } from '../../emails/index.js';
import { takeToken } from '../../core/rate-limit.js';
import { issueEmailToken, redeemEmailToken } from './email-tokens.js';
import { EMAIL_LINK_LIMITS, TOO_MANY_LINKS } from './limits.js';

/** POST /v1/me/verification-email: a new confirmation link, unless the address is already confirmed. */
export async function sendVerificationEmail(ctx: CommandContext, user: User): Promise<void> {
  if (user.emailVerifiedAt) return;
  const now = ctx.clock.now();
  await ctx.em.transactional(async (em) => {
    await takeToken(em, EMAIL_LINK_LIMITS.verify_email, user.emailNormalized, now, TOO_MANY_LINKS);
    await queueAccountEmail(em, ctx.marketplace, user, 'email_confirmation', issueEmailToken(em, user, 'verify_email', now));
    await em.flush();
  });
}

/** POST /v1/email-verifications: confirms the address; the link keeps working (harmlessly) for its 24 hours. */
export async function verifyEmail(ctx: CommandContext, token: string): Promise<User> {
  const now = ctx.clock.now();
  return ctx.em.transactional(async (em) => {
    const row = await redeemEmailToken(em, token, ['verify_email'], now, { once: false });
    const user = await em.findOneOrFail(UserSchema, { id: row.userId });
    user.emailVerifiedAt ??= now;
    await em.flush();
    return user;
  });
}
