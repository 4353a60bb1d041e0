import type { EmailTokenPurpose } from '@hm/db/entities';
import type { CommandContext } from '../../core/context.js';
import { queueAccountEmail, type AccountTemplate } from '../../emails/index.js';
import { takeToken, type RateLimit } from '../../core/rate-limit.js';
import { issueEmailToken } from './email-tokens.js';
import { TOO_MANY_LINKS } from './limits.js';
import { findUserByEmail, normalizeEmail } from './users.js';

/**
 * "Email me a link" requests (sign-in, password reset): counted per address whether or not it has
 * an account (so neither the 202 nor the 429 tells), and mailed only to an account that is not blocked.
 */
export async function mailLinkIfAccount(ctx: CommandContext, email: string, link: { limit: RateLimit; purpose: EmailTokenPurpose; template: AccountTemplate }): Promise<void> {
  const now = ctx.clock.now();
  await ctx.em.transactional(async (em) => {
    await takeToken(em, link.limit, normalizeEmail(email), now, TOO_MANY_LINKS);
    const user = await findUserByEmail(em, email);
    if (!user || user.blockedAt) return;
    await queueAccountEmail(em, ctx.marketplace, user, link.template, issueEmailToken(em, user, link.purpose, now));
    await em.flush();
  });
}
