import type { ApiMode, KeyKind } from '../core/context.js';
import { hashToken, newSecretToken } from '../core/secret-token.js';

const PREFIX: Record<KeyKind, string> = { secret: 'sk', publishable: 'pk' };
const KEY_PATTERN = /^(sk|pk)_(test|live)_([A-Za-z0-9_-]{43})$/;

/** A new key: prefix tells kind and mode; 256 random bits; only its hash is stored. */
export function generateApiKey(kind: KeyKind, mode: ApiMode): string {
  return newSecretToken(`${PREFIX[kind]}_${mode}_`);
}

export function parseApiKey(token: string): { kind: KeyKind; mode: ApiMode } | undefined {
  const m = KEY_PATTERN.exec(token);
  if (!m) return undefined;
  return { kind: m[1] === 'sk' ? 'secret' : 'publishable', mode: m[2] as ApiMode };
}

export const hashApiKey = hashToken;
