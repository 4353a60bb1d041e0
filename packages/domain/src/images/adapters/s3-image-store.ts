import type { S3Client } from '@aws-sdk/client-s3';
import { SAFE_KEY, type ImageStore } from '../../core/ports/image-store.js';

export interface S3Options {
  bucket: string;
  region?: string;
  /** S3-compatible services (MinIO, R2, …); path-style addressing is used with an endpoint */
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** key prefix inside the bucket, e.g. "marketplace/" */
  prefix?: string;
}

/** Any S3-compatible bucket through the official SDK (credentials from options or the SDK's usual chain). */
export function s3ImageStore(opts: S3Options): ImageStore {
  // The SDK loads on first use: a process that never touches a photo (the console) does not pay for it.
  let loaded: Promise<{ sdk: typeof import('@aws-sdk/client-s3'); client: S3Client }> | undefined;
  const s3 = () =>
    (loaded ??= import('@aws-sdk/client-s3').then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        region: opts.region ?? 'us-east-1',
        ...(opts.endpoint ? { endpoint: opts.endpoint, forcePathStyle: true } : {}),
        ...(opts.accessKeyId && opts.secretAccessKey ? { credentials: { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey } } : {}),
      }),
    })));
  const key = (k: string) => {
    if (!SAFE_KEY.test(k)) throw new Error(`not an image key: ${k}`);
    return `${opts.prefix ?? ''}${k}`;
  };
  return {
    name: 's3',
    async put(k, body, contentType) {
      const { sdk, client } = await s3();
      // A stream is gathered as it arrives and sent as one PutObject after its last byte (S3 keeps an
      // object only once all of it came; a stream failing halfway sends nothing). Sending it while it
      // arrives would need its length and the SDK's streamed (aws-chunked) signing, or a multipart
      // upload (parts of at least 5 MiB): measured and not taken, see README "Photos (item 4)".
      const bytes = Buffer.isBuffer(body) ? body : await gather(body);
      await client.send(
        new sdk.PutObjectCommand({ Bucket: opts.bucket, Key: key(k), Body: bytes, ContentType: contentType, CacheControl: 'public, max-age=31536000, immutable' }),
      );
    },
    async get(k) {
      const { sdk, client } = await s3();
      try {
        const res = await client.send(new sdk.GetObjectCommand({ Bucket: opts.bucket, Key: key(k) }));
        const body = Buffer.from(await res.Body!.transformToByteArray());
        return { body, contentType: res.ContentType ?? 'application/octet-stream' };
      } catch (e) {
        if (e instanceof sdk.NoSuchKey || (e instanceof sdk.S3ServiceException && e.$metadata.httpStatusCode === 404)) return null;
        throw e;
      }
    },
    async delete(keys) {
      if (keys.length === 0) return;
      const { sdk, client } = await s3();
      await client.send(new sdk.DeleteObjectsCommand({ Bucket: opts.bucket, Delete: { Objects: keys.map((k) => ({ Key: key(k) })), Quiet: true } }));
    },
  };
}

async function gather(body: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return Buffer.concat(chunks);
}
