import { createHash, randomBytes } from 'node:crypto';
import type { ApiMode, KeyKind } from '../context.js';

const PREFIX: Record<KeyKind, string> = { secret: 'sk', publishable: 'pk' };
const KEY_PATTERN = /^(sk|pk)_(test|live)_([A-Za-z0-9_-]{43})$/;

/** A new key: prefix tells kind and mode; 256 random bits; only its hash is stored. */
export function generateApiKey(kind: KeyKind, mode: ApiMode): string {
  return `${PREFIX[kind]}_${mode}_${randomBytes(32).toString('base64url')}`;
}

export function parseApiKey(token: string): { kind: KeyKind; mode: ApiMode } | undefined {
  const m = KEY_PATTERN.exec(token);
  if (!m) return undefined;
  return { kind: m[1] === 'sk' ? 'secret' : 'publishable', mode: m[2] as ApiMode };
}

/** Keys carry 256 bits of entropy, so a fast hash is enough (no brute force to slow down). */
export function hashApiKey(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
