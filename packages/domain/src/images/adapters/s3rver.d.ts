/** s3rver ships no types; the part the contract test uses. */
declare module 's3rver' {
  export default class S3rver {
    constructor(opts: { port?: number; address?: string; silent?: boolean; directory: string });
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
}
