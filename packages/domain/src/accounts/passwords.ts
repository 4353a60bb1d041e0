import { argon2, randomBytes, timingSafeEqual } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { promisify } from 'node:util';
import { DomainError } from '../core/errors.js';
import { RETRY_AFTER_SECONDS } from '../core/unavailable.js';

const argon2Async = promisify(argon2);

/** OWASP's argon2id floor: 19 MiB memory, 2 passes, 1 lane. Stored in the PHC string format. */
export const ARGON2_PARAMS = { memory: 19_456, passes: 2, parallelism: 1, tagLength: 32 } as const;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

/**
 * At most HASHING_AT_ONCE argon2 runs at a time (half the cores: each takes a core, a thread of libuv's pool and 19 MiB), the
 * others wait in line; past HASHING_QUEUE waiting, 503 "busy" with Retry-After instead of an ever
 * longer wait. A burst of sign-ins then queues here, holding no database connection, and leaves the
 * thread pool (file reads, DNS) and the CPU to other requests (issue 24).
 */
export const HASHING_AT_ONCE = Math.max(1, Math.floor(availableParallelism() / 2));
export const HASHING_QUEUE = 500;
let hashing = 0;
const waiting: (() => void)[] = [];

async function derive(password: string, nonce: Buffer, p: { memory: number; passes: number; parallelism: number; tagLength: number }) {
  if (hashing >= HASHING_AT_ONCE) {
    if (waiting.length >= HASHING_QUEUE) {
      throw new DomainError('service_unavailable', 'The service is busy checking too many passwords at once. Retry in a few seconds.', { retryAfterSeconds: RETRY_AFTER_SECONDS });
    }
    await new Promise<void>((resolve) => waiting.push(resolve));
  } else hashing++;
  try {
    return await argon2Async('argon2id', { message: Buffer.from(password, 'utf8'), nonce, ...p });
  } finally {
    // hand the slot to the next in line, or give it back
    const next = waiting.shift();
    if (next) next();
    else hashing--;
  }
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await derive(password, salt, ARGON2_PARAMS);
  const b64 = (b: Buffer) => b.toString('base64').replace(/=+$/, '');
  return `$argon2id$v=19$m=${ARGON2_PARAMS.memory},t=${ARGON2_PARAMS.passes},p=${ARGON2_PARAMS.parallelism}$${b64(salt)}$${b64(hash)}`;
}

const PHC = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

/** Checks a password against a stored hash with the parameters the hash was made with. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const m = PHC.exec(stored);
  if (!m) return false;
  const expected = Buffer.from(m[5]!, 'base64');
  const actual = await derive(password, Buffer.from(m[4]!, 'base64'), { memory: Number(m[1]), passes: Number(m[2]), parallelism: Number(m[3]), tagLength: expected.length });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Verifying against this when an address has no password keeps "no such account" as slow as "wrong password". */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(16).toString('hex'));
  return decoy;
}
