import type { RateLimit } from '../core/rate-limit.js';

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Like users' (spec: Limits → Sign-in): 10 failed sign-ins (wrong password or code) in 15 minutes lock the address for the rest of that window. */
export const OPERATOR_SIGN_IN_FAILURES: RateLimit = { bucket: 'operator_sign_in_failures', limit: 10, windowMs: 15 * MINUTE };

/** Issue 26: an operator session ends 12 hours after its last use and 7 days after sign-in at most. */
export const OPERATOR_SESSION_IDLE_MS = 12 * HOUR;
export const OPERATOR_SESSION_MAX_MS = 7 * DAY;
/** An invitation link works for 7 days. */
export const INVITATION_TTL_MS = 7 * DAY;
export const OPERATOR_TOKEN_PREFIX = 'ops_';
export const INVITATION_TOKEN_PREFIX = 'opi_';
