import path from 'node:path';
import { MarketplaceSchema } from '@hm/db/entities';
import { crossTenantEm } from '@hm/db/orm';
import type { Worker } from '@hm/jobs/worker';
import { buildApp } from './app.js';
import { apiLogger } from './http/logging.js';
import { createDemo, ensureDemoTeam, readDemo, seedShopInBackground } from './demo.js';
import { connect, createPorts, exitOnStartupError, loadConfig, startConfiguredWorker } from './runtime.js';
import { runStorefront, type Storefront } from './storefront.js';
import { runBackOffice } from './back-office.js';
import type { NextApp } from './next-app.js';

/**
 * `npm start`: embedded Postgres (unless DATABASE_URL; kept running: restarted if it dies), migrations,
 * in test mode the demo marketplace on an empty database, then API + worker + reference storefront +
 * back office (production builds; `npm run dev` runs `next dev` instead), and in the background the demo shop's
 * listings. Ctrl-C stops them in reverse order. A live deployment starts empty: its first marketplace
 * is made with the console, so no demo keys ever exist in live mode.
 */
const dev = process.argv.includes('--dev');
const config = loadConfig();
const log = (msg: string) => process.stderr.write(`${msg}\n`);
const db = await connect(config, { supervise: true, notice: log }).catch(exitOnStartupError);

const marketplaces = await crossTenantEm(db.orm).count(MarketplaceSchema, {});
let demo = config.API_MODE === 'test' ? readDemo(config) : undefined;
if (marketplaces === 0 && config.API_MODE === 'test') {
  demo = await createDemo(config, db);
  log('Created the demo marketplace "demo".');
}
if (demo) {
  const before = demo;
  demo = await ensureDemoTeam(config, db, before).catch((e: Error) => {
    log(`Demo operators: not made (${e.message.split('\n')[0]}).`);
    return before;
  });
}

const ports = createPorts(config);
const app = await buildApp({
  orm: db.orm,
  ports,
  mode: config.API_MODE,
  apiUrl: config.apiUrl,
  stripeWebhookSecret: config.STRIPE_SECRET_KEY ? config.STRIPE_WEBHOOK_SECRET : undefined,
  stripeConnectWebhookSecret: config.STRIPE_SECRET_KEY ? config.STRIPE_CONNECT_WEBHOOK_SECRET : undefined,
  bodyLimit: config.BODY_LIMIT_BYTES,
  apiKeyCacheMs: config.API_KEY_CACHE_MS,
  keyChangesUrl: config.DATABASE_DIRECT_URL ?? db.url,
  directUrl: config.DATABASE_DIRECT_URL ?? db.url,
  readCache: config.API_READ_CACHE,
  backOfficeUrl: config.backOfficeUrl,
  logger: apiLogger(config.LOG_LEVEL),
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

const banner = [
  '',
  '  Headless Marketplace API is running',
  `  API            ${config.apiUrl}/v1`,
  `  Docs           ${config.apiUrl}/docs`,
  `  OpenAPI        ${config.apiUrl}/v1/openapi.json`,
  ...(config.START_STOREFRONT && demo ? [`  Storefront     ${config.storefrontUrl}  (${dev ? 'next dev' : 'production build'})`] : []),
  `  Mode           ${config.API_MODE}`,
  `  Payments       ${ports.payments.name === 'stripe' ? `Stripe${config.STRIPE_API_BASE ? ` at ${config.STRIPE_API_BASE}` : ''}, webhooks ${config.apiUrl}/webhooks/stripe and …/webhooks/stripe/connect${config.STRIPE_CONNECT_WEBHOOK_SECRET ? '' : ' (no Connect secret: payouts cannot become ready)'}` : 'local sandbox (pay with POST /v1/test-helpers/payments/confirm)'}`,
  `  Database       ${db.embedded ? `embedded PostgreSQL in ${path.join(config.dataDir, 'pg')}, port ${new URL(db.url).port}` : 'DATABASE_URL'}`,
  ...(demo
    ? [
        `  Demo secret key       ${demo.secret}`,
        `  Demo publishable key  ${demo.publishable}`,
        ...(demo.logins
          ? [`  Demo buyer            ${demo.logins.buyer.email}   password ${demo.logins.buyer.password}`, `  Demo seller           ${demo.logins.seller.email}  password ${demo.logins.seller.password}`]
          : []),
        ...(demo.operators
          ? [
              ...(config.START_BACK_OFFICE ? [`  Back office           ${config.backOfficeUrl}  (${dev ? 'next dev' : 'production build'}; marketplace "demo")`] : []),
              `  Back office API       ${config.apiUrl}/console/v1  (OpenAPI ${config.apiUrl}/console/v1/openapi.json, marketplace "demo")`,
              `  Demo admin            ${demo.operators.admin.email}   password ${demo.operators.admin.password}`,
              `  Demo viewer           ${demo.operators.viewer.email}  password ${demo.operators.viewer.password}`,
            ]
          : []),
        '',
        `  Try: curl -H "Authorization: Bearer ${demo.secret}" ${config.apiUrl}/v1/marketplace`,
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

// After the banner, in the background: the API answers while the storefront is built and the demo
// shop fills up (its photos go through the worker).
let storefront: Storefront | undefined;
if (config.START_STOREFRONT && demo) storefront = runStorefront({ config, apiKey: demo.secret, dev, log });
let backOffice: NextApp | undefined;
if (config.START_BACK_OFFICE) backOffice = runBackOffice({ config, dev, log });
const seeding = demo ? seedShopInBackground({ config, db, ports, demo, log }) : undefined;

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  log(`\n${signal}: stopping…`);
  setInterval(() => {}, 60_000); // a ref'd handle: Node must not exit on its own before the database is stopped
  await Promise.all([storefront?.stop(), backOffice?.stop()]);
  await seeding?.stop();
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
