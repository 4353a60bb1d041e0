// s3rver ships no types: its declaration sits beside the image store, and test code of other workspaces reaches this file first
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="../images/adapters/s3rver.d.ts" />
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';

/**
 * Test support: s3rver, an S3-compatible server in Node (the image store's contract test runs the
 * real AWS SDK against it), on a free port with a folder of its own and one bucket made.
 */
export interface S3TestServer {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  close(): Promise<void>;
}

export async function startS3TestServer(opts: { bucket?: string } = {}): Promise<S3TestServer> {
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: mkdtempSync(path.join(tmpdir(), 'hm-s3rver-')) });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
  const bucket = opts.bucket ?? 'hm-images';
  await new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials }).send(new CreateBucketCommand({ Bucket: bucket }));
  return { endpoint, bucket, ...credentials, close: () => server.close() };
}
