import type { Config } from './config.js';
import { runNextApp, type NextApp } from './next-app.js';

/**
 * The back-office app (apps/back-office) beside the API, like the storefront (next-app.ts): a
 * production build reused while its inputs are the same, or `next dev` with `npm run dev`, in its own
 * server (apps/back-office/server.ts) on BACK_OFFICE_HOST only. It holds no key: operators sign in,
 * and it calls /console/trpc with their session.
 */
export function runBackOffice(opts: { config: Config; dev: boolean; log: (line: string) => void }): NextApp {
  const { config } = opts;
  const { STRIPE_PUBLISHABLE_KEY: _stripe, ...inherited } = process.env;
  return runNextApp({
    name: 'Back office',
    folder: 'back-office',
    workspace: '@hm/back-office',
    distDir: config.BACK_OFFICE_DIST_DIR,
    buildEnv: inherited,
    runtimeEnv: {
      ...inherited,
      API_URL: config.apiUrl,
      BACK_OFFICE_URL: config.backOfficeUrl,
      BACK_OFFICE_PORT: String(config.BACK_OFFICE_PORT),
      BACK_OFFICE_HOST: config.BACK_OFFICE_HOST,
      STOREFRONT_URL: config.storefrontUrl,
    },
    dataDir: config.dataDir,
    dev: opts.dev,
    log: opts.log,
  });
}
