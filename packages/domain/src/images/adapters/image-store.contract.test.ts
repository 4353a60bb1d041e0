import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { originalKey, sizeKey, type ImageStore } from '../../core/ports/image-store.js';
import { startS3TestServer, type S3TestServer } from '../../testing/s3-test-server.js';
import { diskImageStore } from './disk-image-store.js';
import { s3ImageStore } from './s3-image-store.js';

/**
 * One contract for both image stores. S3 runs through the real AWS SDK against s3rver, an
 * S3-compatible server in Node (there is no network here); disk against a temporary folder.
 */
let s3: S3TestServer | undefined;
afterAll(async () => {
  await s3?.close();
});

const stores: [string, () => Promise<ImageStore>][] = [
  ['disk', async () => diskImageStore(mkdtempSync(path.join(tmpdir(), 'hm-images-')))],
  [
    's3',
    async () => {
      s3 = await startS3TestServer();
      return s3ImageStore({ bucket: s3.bucket, endpoint: s3.endpoint, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey, prefix: 'shop/' });
    },
  ],
];

describe.each(stores)('image store contract: %s', (_name, make) => {
  let store: ImageStore;
  beforeAll(async () => {
    store = await make();
  });

  test('put then get returns the same bytes and type', async () => {
    const id = randomUUID();
    const body = Buffer.from(Array.from({ length: 70_000 }, (_, i) => i % 251));
    await store.put(sizeKey(id, 'large'), body, 'image/jpeg');
    const got = await store.get(sizeKey(id, 'large'));
    expect(got?.contentType).toBe('image/jpeg');
    expect(got?.body.equals(body)).toBe(true);
  });

  test('an unknown key is null, not an error', async () => {
    expect(await store.get(sizeKey(randomUUID(), 'thumb'))).toBeNull();
  });

  test('put replaces; delete removes several keys and ignores missing ones', async () => {
    const id = randomUUID();
    await store.put(originalKey(id), Buffer.from('first'), 'application/octet-stream');
    await store.put(originalKey(id), Buffer.from('second'), 'application/octet-stream');
    expect((await store.get(originalKey(id)))?.body.toString()).toBe('second');
    await store.put(sizeKey(id, 'thumb'), Buffer.from('t'), 'image/jpeg');
    await store.delete([originalKey(id), sizeKey(id, 'thumb'), sizeKey(id, 'medium')]);
    expect(await store.get(originalKey(id))).toBeNull();
    expect(await store.get(sizeKey(id, 'thumb'))).toBeNull();
    await store.delete([]);
  });

  /** 3 MB in 64 KiB chunks, as a request body arrives; `failAfter` chunks, then the client is gone */
  async function* arriving(body: Buffer, failAfter = Infinity) {
    for (let i = 0, n = 0; i < body.length; i += 65_536, n++) {
      if (n === failAfter) throw new Error('aborted');
      await new Promise((r) => setImmediate(r));
      yield body.subarray(i, i + 65_536);
    }
  }
  const threeMb = Buffer.from(Array.from({ length: 3_000_000 }, (_, i) => (i * 7) % 253));

  test('a stream is stored as it arrives, with or without its length known', async () => {
    const id = randomUUID();
    await store.put(originalKey(id), arriving(threeMb), 'image/jpeg', threeMb.length);
    expect((await store.get(originalKey(id)))?.body.equals(threeMb)).toBe(true);
    await store.put(sizeKey(id, 'large'), arriving(threeMb), 'image/jpeg');
    expect((await store.get(sizeKey(id, 'large')))?.body.equals(threeMb)).toBe(true);
  });

  test('a stream that fails halfway rejects with its error and leaves nothing under the key', async () => {
    const id = randomUUID();
    await expect(store.put(originalKey(id), arriving(threeMb, 23), 'image/jpeg', threeMb.length)).rejects.toThrow();
    await expect(store.put(sizeKey(id, 'large'), arriving(threeMb, 23), 'image/jpeg')).rejects.toThrow('aborted');
    expect(await store.get(originalKey(id))).toBeNull();
    expect(await store.get(sizeKey(id, 'large'))).toBeNull();
  });

  test('refuses keys that are not image keys (no path tricks)', async () => {
    await expect(store.put('../escape', Buffer.from('x'), 'image/jpeg')).rejects.toThrow('not an image key');
    await expect(store.get('images/../../etc/passwd')).rejects.toThrow('not an image key');
  });
});

test('disk: a stream that fails halfway leaves no temp file behind', async () => {
  const root = mkdtempSync(path.join(tmpdir(), 'hm-images-'));
  const store = diskImageStore(root);
  async function* halfway() {
    yield Buffer.alloc(100_000, 1);
    throw new Error('aborted');
  }
  await expect(store.put(originalKey(randomUUID()), halfway(), 'image/jpeg')).rejects.toThrow('aborted');
  expect(readdirSync(path.join(root, 'originals'))).toEqual([]);
});
