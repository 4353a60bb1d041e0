import { createHash, randomBytes } from 'node:crypto';

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
