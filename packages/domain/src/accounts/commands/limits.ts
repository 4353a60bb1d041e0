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
