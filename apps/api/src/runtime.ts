import { existsSync } from 'node:fs';
import path from 'node:path';
import { openDatabase, type OpenDatabase } from '@hm/db/database';
import { EmbeddedPostgresError } from '@hm/db/postgres';
import { isDatabaseUnavailable } from '@hm/db/unavailable';
import { systemClock } from '@hm/domain/context';
import { localMailbox, resendMailer, type Mailer } from '@hm/domain/emails';
import { diskImageStore, s3ImageStore, type ImageStore } from '@hm/domain/images';
import { startWorker, type Worker } from '@hm/jobs/worker';
import { readConfig, type Config } from './config.js';
import { REPO_ROOT } from './paths.js';

/** Composition root shared by `npm start`, `npm run worker` and the console: config, then the database. */
export function loadConfig(): Config {
  const envFile = path.join(REPO_ROOT, '.env');
  if (existsSync(envFile)) process.loadEnvFile(envFile);
  return readConfig();
}

/**
 * `supervise`: for long-running processes, which keep the embedded PostgreSQL up (see postgres.ts);
 * `notice` hears what they do to it.
 */
export function connect(config: Config, opts: { log?: (line: string) => void; notice?: (message: string) => void; supervise?: boolean } = {}): Promise<OpenDatabase> {
  return openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.dataDir,
    embeddedPort: config.EMBEDDED_PG_PORT,
    supervise: opts.supervise,
    mode: config.API_MODE,
    orm: { poolMax: config.DATABASE_POOL_MAX },
    onLog: opts.log,
    onNotice: opts.notice,
  });
}

/** The mail adapter: Resend when RESEND_API_KEY is set, else the local mailbox (.eml files under DATA_DIR/mailbox). */
export function createMailer(config: Config): Mailer {
  if (config.RESEND_API_KEY) return resendMailer({ apiKey: config.RESEND_API_KEY, baseUrl: config.RESEND_BASE_URL });
  return localMailbox(path.join(config.dataDir, 'mailbox', config.API_MODE));
}

/** The image store: an S3-compatible bucket when S3_BUCKET is set, else files under DATA_DIR/images/<mode>. */
export function createImageStore(config: Config): ImageStore {
  if (config.S3_BUCKET) {
    return s3ImageStore({
      bucket: config.S3_BUCKET,
      region: config.S3_REGION,
      endpoint: config.S3_ENDPOINT,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
      prefix: config.S3_PREFIX,
    });
  }
  return diskImageStore(path.join(config.dataDir, 'images', config.API_MODE));
}

/** Worker with the tasks' dependencies wired from config. */
export function startConfiguredWorker(config: Config, db: OpenDatabase, images: ImageStore, log: (level: string, message: string) => void): Promise<Worker> {
  return startWorker({
    connectionString: db.url,
    deps: { orm: db.orm, mailer: createMailer(config), mode: config.API_MODE, clock: systemClock, mailFrom: config.MAIL_FROM, images, ratesUrl: config.RATES_URL },
    log,
  });
}

/**
 * Start-up failures a person fixes (the embedded database's directory or port, an unreachable
 * DATABASE_URL) end the process with one line that says what to do, not a stack trace.
 */
export function exitOnStartupError(e: unknown): never {
  if (e instanceof EmbeddedPostgresError) process.stderr.write(`${e.message}\n`);
  else if (isDatabaseUnavailable(e)) process.stderr.write(`Cannot reach the database (${(e as Error).message.split('\n')[0]}): start it, or unset DATABASE_URL to use the embedded one.\n`);
  else throw e;
  process.exit(1);
}
