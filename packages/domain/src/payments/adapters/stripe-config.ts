import type { Stripe } from 'stripe';

/** How the service talks to Stripe: the options, the API version, timeouts and retries of the SDK. */
export interface StripeOptions {
  secretKey: string;
  /** any Stripe-compatible server (`http://127.0.0.1:12111`); unset: Stripe itself */
  apiBase?: string;
  /** per request; Stripe's own default (80 s) would hold a buyer's request far too long */
  timeoutMs?: number;
  /** where Stripe would send a buyer back after a redirect; only test confirmations (cards, no redirect) pass one */
  returnUrl?: string;
}

/**
 * One retry inside the SDK, with our idempotency key, covers a dropped connection or a lock
 * timeout; beyond that the caller retries: a request answers 503 with Retry-After (the client
 * retries with its Idempotency-Key), a job fails and graphile-worker backs off. More SDK retries
 * would hold a buyer's request for up to (retries + 1) × the timeout.
 */
export const STRIPE_MAX_NETWORK_RETRIES = 1;
export const STRIPE_TIMEOUT_MS = 10_000;

/**
 * The Stripe API version every request is sent with and every webhook event must be rendered in (the
 * version the installed `stripe` package is generated for: its types describe exactly these objects).
 * Register both webhook endpoints with this version; an event of another version is refused
 * (stripe-webhook.ts) rather than read with the wrong field names. Raise it with the package.
 */
export const STRIPE_API_VERSION = '2026-10-28.endive' as const;

/** The SDK pointed at STRIPE_API_BASE when set (its host, port and protocol options). */
export function stripeClientConfig(opts: StripeOptions): Stripe.StripeConfig {
  const base = opts.apiBase ? new URL(opts.apiBase) : undefined;
  return {
    apiVersion: STRIPE_API_VERSION,
    timeout: opts.timeoutMs ?? STRIPE_TIMEOUT_MS,
    maxNetworkRetries: STRIPE_MAX_NETWORK_RETRIES,
    telemetry: false,
    ...(base && { host: base.hostname, port: base.port || (base.protocol === 'http:' ? 80 : 443), protocol: base.protocol === 'http:' ? 'http' : 'https' }),
  };
}
