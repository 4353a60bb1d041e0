import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import S3rver from 's3rver';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { originalKey, sizeKey, type ImageStore } from '../../core/ports/image-store.js';
import { diskImageStore } from './disk-image-store.js';
import { s3ImageStore } from './s3-image-store.js';

/**
 * One contract for both image stores. S3 runs through the real AWS SDK against s3rver, an
 * S3-compatible server in Node (there is no network here); disk against a temporary folder.
 */
let s3rver: S3rver | undefined;
afterAll(async () => {
  await s3rver?.close();
});

const stores: [string, () => Promise<ImageStore>][] = [
  ['disk', async () => diskImageStore(mkdtempSync(path.join(tmpdir(), 'hm-images-')))],
  [
    's3',
    async () => {
      s3rver = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: mkdtempSync(path.join(tmpdir(), 'hm-s3rver-')) });
      const { port } = await s3rver.run();
      const endpoint = `http://127.0.0.1:${port}`;
      const creds = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
      await new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: creds }).send(new CreateBucketCommand({ Bucket: 'hm-images' }));
      return s3ImageStore({ bucket: 'hm-images', endpoint, ...creds, prefix: 'shop/' });
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

  test('refuses keys that are not image keys (no path tricks)', async () => {
    await expect(store.put('../escape', Buffer.from('x'), 'image/jpeg')).rejects.toThrow('not an image key');
    await expect(store.get('images/../../etc/passwd')).rejects.toThrow('not an image key');
  });
});
