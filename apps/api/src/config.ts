import { isIP } from 'node:net';
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
  // the storefront's dev mailbox (test mode only): off, loopback (a browser on this machine) or any
  STOREFRONT_DEV_MAILBOX: z.enum(['off', 'loopback', 'any']).default('off'),
  // addresses of the reverse proxies in front of the storefront whose X-Forwarded-For/-Host/-Proto it believes
  STOREFRONT_TRUSTED_PROXIES: z
    .string()
    .refine((v) => v.split(',').every((ip) => isIP(ip.trim()) !== 0), 'Must be IP addresses, comma-separated.')
    .optional(),
  BACK_OFFICE_PORT: z.coerce.number().int().min(0).max(65535).default(3001),
  // the back-office app listens on this interface only (loopback unless you open it up on purpose)
  BACK_OFFICE_HOST: z.string().min(1).default('127.0.0.1'),
  // where `next build` puts the back office's production build (inside apps/back-office)
  BACK_OFFICE_DIST_DIR: z.string().regex(/^\.next[\w.-]*$/, 'Must be a folder name starting with .next').default('.next'),
  DATA_DIR: z.string().default('.data'),
  DATABASE_URL: z.string().url().optional(),
  // with DATABASE_URL through a transaction pooler (PgBouncer): the same database directly, for what needs a session of its own
  DATABASE_DIRECT_URL: z.string().url().optional(),
  // unset: a free port, chosen once and remembered in DATA_DIR (so checkouts and test runs never collide)
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  API_MODE: z.enum(['test', 'live']).default('test'),
  API_URL: z.string().url().optional(),
  STOREFRONT_URL: z.string().url().optional(),
  /** where the back-office app is served: operators' invitation links lead there, and its origin may make cookie-authenticated changes */
  BACK_OFFICE_URL: z.string().url().optional(),
  START_STOREFRONT: z.stringbool().default(true),
  START_BACK_OFFICE: z.stringbool().default(true),
  START_WORKER: z.stringbool().default(true),
  // jobs one worker process runs at once: most wait on the network (webhook receivers up to 10 s, email, Stripe), not the CPU
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(8),
  // listings of the demo shop seeded on the first start in test mode (0: the demo's accounts only)
  DEMO_LISTINGS: z.coerce.number().int().min(0).max(MAX_DEMO_LISTINGS).default(DEFAULT_DEMO_LISTINGS),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
  API_KEY_CACHE_MS: z.coerce.number().int().min(0).max(1000).default(1000),
  // public reads kept per process until a change to what they read commits (needs API_KEY_CACHE_MS > 0: its listener)
  API_READ_CACHE: z.stringbool().default(true),
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
  STRIPE_SECRET_KEY: z.string().regex(/^sk_(test|live)_\w+$/, 'Must be a Stripe secret key (sk_test_… or sk_live_…).').optional(),
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  // the Connect endpoint's own signing secret (<API_URL>/webhooks/stripe/connect): connected accounts' events
  STRIPE_CONNECT_WEBHOOK_SECRET: z.string().min(1).optional(),
  STRIPE_PUBLISHABLE_KEY: z.string().regex(/^pk_(test|live)_\w+$/, 'Must be a Stripe publishable key (pk_test_… or pk_live_…).').optional(),
  STRIPE_API_BASE: z.url({ protocol: /^https?$/ }).optional(),
  WEBHOOK_SECRETS_KEY: z
    .string()
    .refine((k) => Buffer.from(k, 'base64').length === 32, 'Must be base64 of 32 random bytes (openssl rand -base64 32).')
    .optional(),
});

export type Config = z.infer<typeof ZConfig> & { dataDir: string; apiUrl: string; storefrontUrl: string; backOfficeUrl: string };

/** A configuration a person must fix: start-up prints its message alone (one line) and exits 1. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Live safety: a live deployment takes real money, so it never runs on the sandbox (whose test
 * helper confirms payments) and needs both webhook secrets (else no payment is ever confirmed, and
 * no seller's payout setup ever becomes ready: Stripe sends connected accounts' events only to the
 * Connect endpoint, signed with its own secret); a test deployment never holds a live key. Stripe's keys carry their mode, so a mismatch is refused
 * before anything starts. One line each, saying what to set.
 */
function stripeRefusal(c: z.infer<typeof ZConfig>): string | undefined {
  const key = c.STRIPE_SECRET_KEY;
  const mode = c.API_MODE;
  if (mode === 'live' && (!key?.startsWith('sk_live_') || !c.STRIPE_WEBHOOK_SECRET)) {
    return 'API_MODE=live needs STRIPE_SECRET_KEY (an sk_live_ key) and STRIPE_WEBHOOK_SECRET: a live deployment takes real payments through Stripe and never uses the payments sandbox.';
  }
  if (mode === 'live' && !c.STRIPE_CONNECT_WEBHOOK_SECRET) {
    return 'API_MODE=live needs STRIPE_CONNECT_WEBHOOK_SECRET: the signing secret of the Connect webhook endpoint <API_URL>/webhooks/stripe/connect (made in Stripe with "Listen to events on Connected accounts"), without which no seller could ever be paid.';
  }
  if (mode === 'test' && key?.startsWith('sk_live_')) return 'STRIPE_SECRET_KEY is a live key (sk_live_) but API_MODE=test: use an sk_test_ key, or set API_MODE=live.';
  if (key && !c.STRIPE_WEBHOOK_SECRET) return 'STRIPE_SECRET_KEY is set without STRIPE_WEBHOOK_SECRET: payments could never be confirmed. Set the signing secret of the webhook endpoint /webhooks/stripe.';
  if (!key && c.STRIPE_CONNECT_WEBHOOK_SECRET) return 'STRIPE_CONNECT_WEBHOOK_SECRET is set without STRIPE_SECRET_KEY: set both to use Stripe, or neither for the payments sandbox.';
  if (!key && c.STRIPE_WEBHOOK_SECRET) return 'STRIPE_WEBHOOK_SECRET is set without STRIPE_SECRET_KEY: set both to use Stripe, or neither for the payments sandbox.';
  const publishableMode = c.STRIPE_PUBLISHABLE_KEY?.startsWith('pk_live_') ? 'live' : c.STRIPE_PUBLISHABLE_KEY ? 'test' : undefined;
  if (publishableMode && publishableMode !== mode) return `STRIPE_PUBLISHABLE_KEY is a ${publishableMode} key but API_MODE=${mode}: use a pk_${mode}_ key.`;
  return undefined;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env, cwd = REPO_ROOT): Config {
  const parsed = ZConfig.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const c = parsed.data;
  if (c.RESEND_API_KEY && !env.MAIL_FROM) throw new Error('Invalid configuration:\n  MAIL_FROM: set it to an address of a domain verified in Resend when RESEND_API_KEY is set.');
  const stripe = stripeRefusal(c);
  if (stripe) throw new ConfigError(stripe);
  return {
    ...c,
    dataDir: path.resolve(cwd, c.DATA_DIR),
    apiUrl: c.API_URL ?? `http://localhost:${c.API_PORT}`,
    storefrontUrl: c.STOREFRONT_URL ?? `http://localhost:${c.STOREFRONT_PORT}`,
    backOfficeUrl: (c.BACK_OFFICE_URL ?? `http://localhost:${c.BACK_OFFICE_PORT}`).replace(/\/+$/, ''),
  };
}
