import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Bearer secrets we hand out (API keys, session tokens, emailed-link tokens): 256 random bits,
 * base64url, with a readable prefix. Only the SHA-256 is stored: with 256 bits of entropy a fast
 * hash is enough (there is nothing to brute-force), and lookups stay one index probe.
 */
export function newSecretToken(prefix: string): string {
  return `${prefix}${randomBytes(32).toString('base64url')}`;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Compares a secret someone sent with the one we hold, in time that does not depend on where they differ. */
export function sameSecret(sent: string, held: string): boolean {
  const a = Buffer.from(sent);
  const b = Buffer.from(held);
  return a.length === b.length && timingSafeEqual(a, b);
}
