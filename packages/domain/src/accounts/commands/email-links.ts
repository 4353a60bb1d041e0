import type { EmailTokenPurpose } from '@hm/db/entities';
import type { CommandContext } from '../../core/context.js';
import { queueAccountEmail, type AccountTemplate } from '../../emails/index.js';
import { takeToken, type RateLimit } from '../../core/rate-limit.js';
import { issueEmailToken } from './email-tokens.js';
import { IP_EMAIL_LINKS, TOO_MANY_LINKS, TOO_MANY_LINKS_FROM_IP } from './limits.js';
import { findUserByEmail, normalizeEmail } from './users.js';

/**
 * "Email me a link" requests (sign-in, password reset): counted per address whether or not it has
 * an account (so neither the 202 nor the 429 tells), and mailed only to an account that is not blocked.
 * With the client's IP known, it is counted first (both kinds together): over its hourly limit the
 * request is refused before it uses up any address's links.
 */
export async function mailLinkIfAccount(ctx: CommandContext, email: string, link: { limit: RateLimit; purpose: EmailTokenPurpose; template: AccountTemplate }): Promise<void> {
  const now = ctx.clock.now();
  await ctx.em.transactional(async (em) => {
    if (ctx.clientIp !== undefined) await takeToken(em, IP_EMAIL_LINKS, ctx.clientIp, now, TOO_MANY_LINKS_FROM_IP);
    await takeToken(em, link.limit, normalizeEmail(email), now, TOO_MANY_LINKS);
    const user = await findUserByEmail(em, email);
    if (!user || user.blockedAt) return;
    await queueAccountEmail(em, ctx.marketplace, user, link.template, issueEmailToken(em, user, link.purpose, now));
    await em.flush();
  });
}
