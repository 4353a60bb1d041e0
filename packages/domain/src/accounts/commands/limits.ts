import type { RateLimit } from '../../core/rate-limit.js';

const MINUTE = 60 * 1000;

/** Spec (Limits → Sign-in): 10 wrong passwords in 15 minutes lock the address for the rest of that window. */
export const SIGN_IN_FAILURES: RateLimit = { bucket: 'sign_in_failures', limit: 10, windowMs: 15 * MINUTE };

/** Spec (Limits → Emailed links): 5 per hour per address, counted per kind of link. */
export const EMAIL_LINK_LIMITS = {
  sign_in: { bucket: 'email_link:sign_in', limit: 5, windowMs: 60 * MINUTE },
  reset_password: { bucket: 'email_link:reset_password', limit: 5, windowMs: 60 * MINUTE },
  verify_email: { bucket: 'email_link:verify_email', limit: 5, windowMs: 60 * MINUTE },
} satisfies Record<string, RateLimit>;

export const TOO_MANY_LINKS = 'Too many emails of this kind were asked for this address. Try again in {seconds} seconds.';

/**
 * Not in the spec (docs/decisions.md): per client IP, when a storefront passes it (`X-Client-IP`),
 * so one source cannot lock out or spray many accounts. 30 wrong passwords in 15 minutes from one
 * address lock out at most 3 accounts; 15 emailed sign-in or reset links an hour from one address
 * use up the hourly links of at most 3 addresses. Over either, that IP gets 429 for the rest of the window.
 */
export const IP_SIGN_IN_FAILURES: RateLimit = { bucket: 'ip:sign_in_failures', limit: 30, windowMs: 15 * MINUTE };
export const IP_EMAIL_LINKS: RateLimit = { bucket: 'ip:email_links', limit: 15, windowMs: 60 * MINUTE };

export const TOO_MANY_FAILURES_FROM_IP = 'Too many wrong passwords from this network. Try again in {seconds} seconds.';
export const TOO_MANY_LINKS_FROM_IP = 'Too many emailed links were asked for from this network. Try again in {seconds} seconds.';
