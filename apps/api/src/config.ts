import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_DEMO_LISTINGS, MAX_DEMO_LISTINGS } from '@hm/domain/demo-shop';
import { REPO_ROOT } from './paths.js';

/**
 * All configuration, read once from the environment at the composition root. Packages receive
 * values, never process.env. Every variable is in README's table and in .env.example.
 */
const ZConfig = z.object({
  API_PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  API_HOST: z.string().default('127.0.0.1'),
  STOREFRONT_PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  // the storefront listens on this interface only (loopback unless you open it up on purpose)
  STOREFRONT_HOST: z.string().min(1).default('127.0.0.1'),
  // where `next build` puts the storefront's production build (inside apps/reference-storefront)
  STOREFRONT_DIST_DIR: z.string().regex(/^\.next[\w.-]*$/, 'Must be a folder name starting with .next').default('.next'),
  DATA_DIR: z.string().default('.data'),
  DATABASE_URL: z.string().url().optional(),
  // unset: a free port, chosen once and remembered in DATA_DIR (so checkouts and test runs never collide)
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  API_MODE: z.enum(['test', 'live']).default('test'),
  API_URL: z.string().url().optional(),
  STOREFRONT_URL: z.string().url().optional(),
  START_STOREFRONT: z.stringbool().default(true),
  START_WORKER: z.stringbool().default(true),
  // listings of the demo shop seeded on the first start in test mode (0: the demo's accounts only)
  DEMO_LISTINGS: z.coerce.number().int().min(0).max(MAX_DEMO_LISTINGS).default(DEFAULT_DEMO_LISTINGS),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  MAIL_FROM: z.email().default('no-reply@localhost'),
  RESEND_API_KEY: z.string().min(1).optional(),
  RESEND_BASE_URL: z.string().url().optional(),
  S3_BUCKET: z.string().min(3).optional(),
  S3_REGION: z.string().optional(),
  S3_ENDPOINT: z.string().url().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_PREFIX: z.string().optional(),
  RATES_URL: z.string().url().optional(),
});

export type Config = z.infer<typeof ZConfig> & { dataDir: string; apiUrl: string; storefrontUrl: string };

export function readConfig(env: NodeJS.ProcessEnv = process.env, cwd = REPO_ROOT): Config {
  const parsed = ZConfig.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const c = parsed.data;
  if (c.RESEND_API_KEY && !env.MAIL_FROM) throw new Error('Invalid configuration:\n  MAIL_FROM: set it to an address of a domain verified in Resend when RESEND_API_KEY is set.');
  return {
    ...c,
    dataDir: path.resolve(cwd, c.DATA_DIR),
    apiUrl: c.API_URL ?? `http://localhost:${c.API_PORT}`,
    storefrontUrl: c.STOREFRONT_URL ?? `http://localhost:${c.STOREFRONT_PORT}`,
  };
}
