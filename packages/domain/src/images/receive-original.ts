import { DomainError } from '../core/errors.js';
import type { ImageStore } from '../core/ports/image-store.js';
import { MAX_IMAGE_BYTES, notAnImage } from './derivatives.js';
import { imageFormatOf, MAGIC_BYTES, type ImageHeader } from './image-header.js';

export interface ReceivedOriginal {
  /** every byte received (the header and end checks read them) */
  bytes: Buffer;
  format: ImageHeader['format'];
  /** the original in the store; rejects when the store failed. Awaited before the upload commits. */
  stored: Promise<void>;
}

export const tooLarge = () => new DomainError('image_too_large', `The photo is larger than ${MAX_IMAGE_BYTES} bytes (20 MiB); send a smaller file.`);
const noBody = () =>
  new DomainError('validation_failed', 'Send the photo as the request body (JPEG, PNG or WebP bytes).', { errors: [{ location: '', message: 'Required.', value: null }] });

/**
 * An upload's body written to the store under `key` while it arrives, instead of after the last
 * byte: the type is read from the first bytes (anything else is refused before a byte is stored),
 * reading stops at the first chunk past `MAX_IMAGE_BYTES`, and a body that fails on the way (the
 * client went away) makes the store's put fail and leaves nothing. Resolves once the last byte is
 * received; the store may still be finishing (`stored`). A refusal after that point — the caller's
 * checks of the whole file — must delete `key` (after `stored` settles).
 */
export async function receiveOriginal(store: ImageStore, key: string, body: AsyncIterable<Buffer>, length?: number): Promise<ReceivedOriginal> {
  const source = body[Symbol.asyncIterator]();
  const chunks: Buffer[] = [];
  let received = 0;
  const take = (chunk: Buffer) => {
    received += chunk.length;
    if (received > MAX_IMAGE_BYTES) throw tooLarge();
    chunks.push(chunk);
  };
  // Refusing stops reading but leaves the body to its owner (never `return()`: that destroys a
  // request stream, and its socket with it, before the refusal could be answered).
  while (received < MAGIC_BYTES) {
    const next = await source.next();
    if (next.done) break;
    take(next.value);
  }
  if (received === 0) throw noBody();
  const format = imageFormatOf(Buffer.concat(chunks));
  if (!format) throw notAnImage();

  let done!: () => void;
  let failed!: (e: unknown) => void;
  const allReceived = new Promise<void>((resolve, reject) => ((done = resolve), (failed = reject)));
  async function* arriving() {
    try {
      yield* chunks.slice();
      for (let next = await source.next(); !next.done; next = await source.next()) {
        take(next.value);
        yield next.value;
      }
      done();
    } catch (e) {
      failed(e);
      throw e;
    }
  }
  const stored = store.put(key, arriving(), `image/${format}`, length);
  // a store that fails — or finishes without reading to the end — before the last byte ends the wait for it
  stored.then(() => failed(new Error('the image store finished before reading the whole body')), failed);
  try {
    await allReceived;
  } catch (e) {
    await stored.catch(() => {});
    throw e;
  }
  return { bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received), format, stored };
}
