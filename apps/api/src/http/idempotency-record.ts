import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes, type Hash } from 'node:crypto';
import { pipeline, Transform } from 'node:stream';
import type { FastifyRequest } from 'fastify';

/**
 * What an idempotency record keeps, and how it is kept unreadable. A stored response can carry a
 * session token, a user's email and phone, for 24 hours: it is sealed (AES-256-GCM) with a key
 * derived from the client's secret API key (stored only as a hash), the user it acts for and the
 * Idempotency-Key: the secret part is never stored anywhere. The request fingerprint is an HMAC under a key derived
 * the same way, so not even a password in a sign-in body can be guessed from it offline. A replay
 * presents the same secrets and so can open the record; the database alone cannot.
 */
export interface RecordKeys {
  mac: Buffer;
  seal: Buffer;
}

export function recordKeys(apiKey: string, userId: string, idempotencyKey: string): RecordKeys {
  const okm = Buffer.from(hkdfSync('sha256', `${apiKey}\n${userId}`, idempotencyKey, 'hm idempotency record v2', 64));
  return { mac: okm.subarray(0, 32), seal: okm.subarray(32) };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** SHA-256 of a non-JSON body, computed while it streamed in (set when an Idempotency-Key came with it) */
    rawBodyDigest?: string;
  }
}

/** Hashes a body's bytes as they arrive: a 20 MiB photo costs one pass of SHA-256, spread over its chunks. */
export function digestWhileReading(req: FastifyRequest, payload: NodeJS.ReadableStream): Transform {
  const hash = createHash('sha256');
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
    flush(done) {
      req.rawBodyDigest = hash.digest('hex');
      done();
    },
  });
  // pipeline, not pipe: an error of either side (the connection closing mid-body, "aborted") destroys
  // both and always has a listener, so it reaches Fastify's body reader when one is reading and is
  // never an uncaught exception when the reader is gone (Node already answered the broken request).
  pipeline(payload, tap, () => {});
  return tap;
}

/** Method, path, query (order-free) and body: JSON by its canonical form (key order is not meaning), other bodies by their bytes. */
export function fingerprint(keys: RecordKeys, req: FastifyRequest): string {
  const url = new URL(req.url, 'http://x');
  const query = [...url.searchParams.entries()].sort(([a], [b]) => a.localeCompare(b));
  const body = Buffer.isBuffer(req.body) ? (req.rawBodyDigest ?? createHash('sha256').update(req.body).digest('hex')) : canonicalDigest(req.body ?? null);
  return createHmac('sha256', keys.mac).update(`${req.method}\n${url.pathname}\n${canonicalDigest(query)}\n${body}`).digest('hex');
}

/** Literal text in the canonical serialisation, as opposed to a value still to serialise. */
class Text {
  constructor(readonly s: string) {}
}

/**
 * SHA-256 of the canonical JSON of a value (object keys sorted), written piece by piece into the
 * hash with an explicit stack: no recursion (any depth), no whole-document string.
 */
export function canonicalDigest(root: unknown): string {
  const hash: Hash = createHash('sha256');
  const stack: unknown[] = [root];
  while (stack.length) {
    const item = stack.pop();
    if (item instanceof Text) {
      hash.update(item.s);
    } else if (Array.isArray(item)) {
      stack.push(new Text(']'));
      for (let i = item.length - 1; i >= 0; i--) {
        stack.push(item[i]);
        if (i > 0) stack.push(new Text(','));
      }
      hash.update('[');
    } else if (item !== null && typeof item === 'object') {
      const keys = Object.keys(item).sort();
      stack.push(new Text('}'));
      for (let i = keys.length - 1; i >= 0; i--) {
        stack.push((item as Record<string, unknown>)[keys[i]!]);
        stack.push(new Text(`${i > 0 ? ',' : ''}${JSON.stringify(keys[i])}:`));
      }
      hash.update('{');
    } else {
      hash.update(JSON.stringify(item) ?? 'null');
    }
  }
  return hash.digest('hex');
}

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** iv ‖ tag ‖ ciphertext; `bind` (the record's identity) is authenticated too, so a sealed body cannot be moved to another record. */
export function seal(keys: RecordKeys, bind: string, plain: Buffer): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keys.seal, iv).setAAD(Buffer.from(bind));
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

/** The stored body, or undefined when it does not open (tampered, or written by an older version). */
export function open(keys: RecordKeys, bind: string, sealed: Buffer): Buffer | undefined {
  if (sealed.length < IV_BYTES + TAG_BYTES) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keys.seal, sealed.subarray(0, IV_BYTES)).setAAD(Buffer.from(bind));
    decipher.setAuthTag(sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
  } catch {
    return undefined;
  }
}
