import { DeleteObjectsCommand, GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { SAFE_KEY, type ImageStore } from '../image-store.js';

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
  const client = new S3Client({
    region: opts.region ?? 'us-east-1',
    ...(opts.endpoint ? { endpoint: opts.endpoint, forcePathStyle: true } : {}),
    ...(opts.accessKeyId && opts.secretAccessKey ? { credentials: { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey } } : {}),
  });
  const key = (k: string) => {
    if (!SAFE_KEY.test(k)) throw new Error(`not an image key: ${k}`);
    return `${opts.prefix ?? ''}${k}`;
  };
  return {
    name: 's3',
    async put(k, body, contentType) {
      await client.send(
        new PutObjectCommand({ Bucket: opts.bucket, Key: key(k), Body: body, ContentType: contentType, CacheControl: 'public, max-age=31536000, immutable' }),
      );
    },
    async get(k) {
      try {
        const res = await client.send(new GetObjectCommand({ Bucket: opts.bucket, Key: key(k) }));
        const body = Buffer.from(await res.Body!.transformToByteArray());
        return { body, contentType: res.ContentType ?? 'application/octet-stream' };
      } catch (e) {
        if (e instanceof NoSuchKey || (e instanceof S3ServiceException && e.$metadata.httpStatusCode === 404)) return null;
        throw e;
      }
    },
    async delete(keys) {
      if (keys.length === 0) return;
      await client.send(new DeleteObjectsCommand({ Bucket: opts.bucket, Delete: { Objects: keys.map((k) => ({ Key: key(k) })), Quiet: true } }));
    },
  };
}
