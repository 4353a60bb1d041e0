import type { Config } from './config.js';
import { runNextApp, type NextApp } from './next-app.js';

export type Storefront = NextApp;

/**
 * The reference storefront beside the API (a production build, or `next dev` with `npm run dev`; see
 * next-app.ts), in its own server (apps/reference-storefront/server.ts, which decides the client's
 * address) on STOREFRONT_HOST only.
 */
export function runStorefront(opts: { config: Config; apiKey: string; dev: boolean; log: (line: string) => void }): Storefront {
  const { config } = opts;
  // The pay page shows Stripe's Payment Element only when this API takes payments through Stripe
  // (a publishable key beside the local sandbox would offer a form no payment could pass).
  const { STRIPE_PUBLISHABLE_KEY, ...inherited } = process.env;
  const stripe = config.STRIPE_SECRET_KEY && STRIPE_PUBLISHABLE_KEY ? { STRIPE_PUBLISHABLE_KEY } : {};
  // The build gets no API key: nothing is prerendered from the API, and no secret ends up in build output.
  // STOREFRONT_URL: an https one turns on HSTS. The dev mailbox and the trusted proxies: see lib/client.ts and server.ts.
  return runNextApp({
    name: 'Storefront',
    folder: 'reference-storefront',
    workspace: '@hm/storefront',
    distDir: config.STOREFRONT_DIST_DIR,
    buildEnv: inherited,
    runtimeEnv: {
      ...inherited,
      ...stripe,
      API_URL: config.apiUrl,
      STOREFRONT_API_KEY: opts.apiKey,
      STOREFRONT_URL: config.storefrontUrl,
      STOREFRONT_PORT: String(config.STOREFRONT_PORT),
      STOREFRONT_HOST: config.STOREFRONT_HOST,
      STOREFRONT_DEV_MAILBOX: config.STOREFRONT_DEV_MAILBOX,
      STOREFRONT_TRUSTED_PROXIES: config.STOREFRONT_TRUSTED_PROXIES ?? '',
    },
    dataDir: config.dataDir,
    dev: opts.dev,
    log: opts.log,
  });
}
