import { existsSync } from 'node:fs';
import path from 'node:path';
import { openDatabase, type OpenDatabase } from '@hm/db/database';
import { EmbeddedPostgresError } from '@hm/db/postgres';
import { isDatabaseUnavailable } from '@hm/db/unavailable';
import { resendMailer } from '@hm/domain/emails';
import { resendContacts } from '@hm/domain/newsletter';
import { s3ImageStore } from '@hm/domain/images';
import { localPorts, systemClock, type Clock, type Ports } from '@hm/domain/ports';
import { httpRateSource } from '@hm/domain/rates';
import { stripePayments } from '@hm/domain/payments';
import { keySecretBox } from '@hm/domain/webhooks';
import { setEventPublicUrl } from '@hm/domain/core';
import type { Worker } from '@hm/jobs/worker';
import { ConfigError, readConfig, type Config } from './config.js';
import { REPO_ROOT } from './paths.js';

/** Composition root shared by `npm start`, `npm run worker` and the console: config, then the database. */
export function loadConfig(): Config {
  const envFile = path.join(REPO_ROOT, '.env');
  if (existsSync(envFile)) process.loadEnvFile(envFile);
  try {
    return readConfig();
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    process.stderr.write(`${e.message}\n`);
    process.exit(1);
  }
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

/**
 * The ports, built once per process and handed to the API, the worker and the console alike: the
 * offline adapters, each replaced by its provider when configured (Resend's emails and contacts when RESEND_API_KEY is
 * set, an S3-compatible bucket when S3_BUCKET is set, reference rates when RATES_URL is set, Stripe
 * when STRIPE_SECRET_KEY is set — always in live mode: config.ts refuses a live deployment without it).
 */
export function createPorts(config: Config, clock: Clock = systemClock): Ports {
  const ports = localPorts({ dataDir: config.dataDir, mode: config.API_MODE, clock });
  if (config.RESEND_API_KEY) {
    ports.mailer = resendMailer({ apiKey: config.RESEND_API_KEY, baseUrl: config.RESEND_BASE_URL });
    ports.contacts = resendContacts({ apiKey: config.RESEND_API_KEY, baseUrl: config.RESEND_BASE_URL });
  }
  if (config.S3_BUCKET) {
    ports.images = s3ImageStore({
      bucket: config.S3_BUCKET,
      region: config.S3_REGION,
      endpoint: config.S3_ENDPOINT,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
      prefix: config.S3_PREFIX,
    });
  }
  if (config.RATES_URL) ports.rates = httpRateSource(config.RATES_URL);
  if (config.WEBHOOK_SECRETS_KEY) ports.secrets = keySecretBox(Buffer.from(config.WEBHOOK_SECRETS_KEY, 'base64'));
  // events carry listings with their image URLs, wherever they are appended (API, worker, console)
  setEventPublicUrl(config.apiUrl);
  if (config.STRIPE_SECRET_KEY) {
    // a card confirmation never redirects; Stripe only wants somewhere to send a buyer back to
    ports.payments = stripePayments({ secretKey: config.STRIPE_SECRET_KEY, apiBase: config.STRIPE_API_BASE, returnUrl: config.apiUrl });
  }
  if (config.API_MODE === 'live' && ports.payments.name !== 'stripe') throw new ConfigError('A live deployment never uses the payments sandbox: set STRIPE_SECRET_KEY.');
  return ports;
}

/** Worker with the tasks' dependencies wired from config. graphile-worker is loaded here, not by every process that loads this file (the console). */
export async function startConfiguredWorker(config: Config, db: OpenDatabase, ports: Ports, log: (level: string, message: string) => void): Promise<Worker> {
  const { startWorker } = await import('@hm/jobs/worker');
  return startWorker({ connectionString: config.DATABASE_DIRECT_URL ?? db.url, concurrency: config.WORKER_CONCURRENCY, deps: { orm: db.orm, mode: config.API_MODE, mailFrom: config.MAIL_FROM, ports }, log });
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
