import { createHash } from 'node:crypto';

/**
 * Conditional reads (RFC 9110 §8.8.3, §13.1.2): every successful GET carries a strong `ETag`, and a
 * request whose `If-None-Match` names it is answered `304 Not Modified` with no body.
 */

/** A strong entity tag for a body: 128 bits of its SHA-256, base64url, quoted. */
export function bodyTag(body: string): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
}

/**
 * Whether `If-None-Match` names `tag` (or is `*`). The comparison is the weak one the RFC asks of
 * If-None-Match: `W/"x"` matches `"x"` (a CDN may have weakened our tag after compressing the body).
 */
export function noneMatchHits(header: string | string[] | undefined, tag: string): boolean {
  if (header === undefined) return false;
  const text = Array.isArray(header) ? header.join(',') : header;
  if (text.trim() === '*') return true;
  for (const part of text.split(',')) {
    const t = part.trim();
    if ((t.startsWith('W/') ? t.slice(2) : t) === tag) return true;
  }
  return false;
}
