import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { MarketplaceSchema } from '@hm/db/entities';
import { crossTenantEm } from '@hm/db/orm';
import { seedDemo } from '@hm/domain/demo';
import type { Worker } from '@hm/jobs/worker';
import { buildApp } from './app.js';
import { connect, createPorts, exitOnStartupError, loadConfig, startConfiguredWorker } from './runtime.js';
import { REPO_ROOT } from './paths.js';

/**
 * `npm start`: embedded Postgres (unless DATABASE_URL; kept running: restarted if it dies), migrations,
 * in test mode the demo marketplace on an empty database, then API + worker + reference storefront.
 * Ctrl-C stops them in reverse order. A live deployment starts empty: its first marketplace is made
 * with the console, so no demo keys ever exist in live mode.
 */
const config = loadConfig();
const log = (msg: string) => process.stderr.write(`${msg}\n`);
const db = await connect(config, { supervise: true, notice: log }).catch(exitOnStartupError);

const demoFile = path.join(config.dataDir, `demo-keys.${config.API_MODE}.json`);
const marketplaces = await crossTenantEm(db.orm).count(MarketplaceSchema, {});
if (marketplaces === 0 && config.API_MODE === 'test') {
  const today = new Date().toISOString().slice(0, 10);
  const { keys } = await seedDemo(db.orm, { mode: config.API_MODE, storefrontUrl: config.storefrontUrl, today });
  mkdirSync(config.dataDir, { recursive: true });
  // Keys are stored hashed; this local file is the only copy, for the developer running the demo.
  writeFileSync(demoFile, JSON.stringify(keys, null, 2), { mode: 0o600 });
  log('Created the demo marketplace "demo".');
}
const demoKeys = existsSync(demoFile) ? (JSON.parse(readFileSync(demoFile, 'utf8')) as { secret: string; publishable: string }) : undefined;

const ports = createPorts(config);
const app = await buildApp({
  orm: db.orm,
  ports,
  mode: config.API_MODE,
  apiUrl: config.apiUrl,
  stripeWebhookSecret: config.STRIPE_SECRET_KEY ? config.STRIPE_WEBHOOK_SECRET : undefined,
  bodyLimit: config.BODY_LIMIT_BYTES,
  logger: {
    level: config.LOG_LEVEL,
    redact: { paths: ['req.headers.authorization', 'req.headers["x-user-session"]', 'req.headers["stripe-signature"]'], censor: '[redacted]' },
  },
});
await app.listen({ port: config.API_PORT, host: config.API_HOST });

let worker: Worker | undefined;
if (config.START_WORKER) {
  worker = await startConfiguredWorker(config, db, ports, (level, message) => {
    // graphile-worker says "warning"; pino "warn". Debug chatter (job polling) stays out.
    if (level === 'error') app.log.error({ worker: true }, message);
    else if (level === 'warning') app.log.warn({ worker: true }, message);
    else if (level !== 'debug') app.log.info({ worker: true }, message);
  });
}

let storefront: ChildProcess | undefined;
if (config.START_STOREFRONT && demoKeys) {
  storefront = spawn('npm', ['run', '--silent', 'dev', '-w', '@hm/storefront'], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: true, // own process group: Ctrl-C reaches us, and we stop it (and its children) in order
    env: { ...process.env, API_URL: config.apiUrl, STOREFRONT_API_KEY: demoKeys.secret, STOREFRONT_PORT: String(config.STOREFRONT_PORT), NEXT_TELEMETRY_DISABLED: '1' },
  });
}

const banner = [
  '',
  '  Headless Marketplace API is running',
  `  API            ${config.apiUrl}/v1`,
  `  Docs           ${config.apiUrl}/docs`,
  `  OpenAPI        ${config.apiUrl}/v1/openapi.json`,
  ...(storefront ? [`  Storefront     ${config.storefrontUrl}`] : []),
  `  Mode           ${config.API_MODE}`,
  `  Payments       ${ports.payments.name === 'stripe' ? `Stripe${config.STRIPE_API_BASE ? ` at ${config.STRIPE_API_BASE}` : ''}, webhook ${config.apiUrl}/webhooks/stripe` : 'local sandbox (pay with POST /v1/test-helpers/payments/confirm)'}`,
  `  Database       ${db.embedded ? `embedded PostgreSQL in ${path.join(config.dataDir, 'pg')}, port ${new URL(db.url).port}` : 'DATABASE_URL'}`,
  ...(demoKeys
    ? [
        `  Demo secret key       ${demoKeys.secret}`,
        `  Demo publishable key  ${demoKeys.publishable}`,
        '',
        `  Try: curl -H "Authorization: Bearer ${demoKeys.secret}" ${config.apiUrl}/v1/marketplace`,
      ]
    : marketplaces === 0
      ? [
          '',
          '  No marketplace yet. Create the first one (its keys are printed once):',
          `  npm run --silent console -- marketplace create --name "My shop" --slug my-shop --currencies EUR --locales en --storefront-url https://shop.example`,
        ]
      : ['  (no demo keys on file: create keys with `npm run console -- keys create --marketplace <slug> --kind secret`)']),
  '',
];
log(banner.join('\n'));

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  log(`\n${signal}: stopping…`);
  setInterval(() => {}, 60_000); // a ref'd handle: Node must not exit on its own before the database is stopped
  if (storefront?.pid && storefront.exitCode === null) {
    const exited = new Promise((resolve) => storefront!.once('exit', resolve));
    try {
      process.kill(-storefront.pid, 'SIGTERM');
    } catch {
      // already gone
    }
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
  }
  // Each step runs even when one before it fails, so the database we started is never left behind.
  let code = 0;
  for (const [name, step] of [
    ['API', () => app.close()],
    ['worker', async () => worker?.stop()],
    ['database', () => db.close()],
  ] as const) {
    try {
      await step();
    } catch (e) {
      code = 1;
      log(`Stopping the ${name} failed: ${(e as Error).message}`);
    }
  }
  process.exit(code);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
