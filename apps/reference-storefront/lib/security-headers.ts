/**
 * The storefront's security headers (proxy.ts sends them on every page, route and server action;
 * next.config.ts the fixed ones on static files too). No Next or server-only imports here.
 */

/** On every response: no framing (clickjacking of pay, order and checkout buttons), no MIME sniffing, no paths or queries in Referers to other sites. */
export const STATIC_SECURITY_HEADERS = {
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
} as const;

/** One year; not `includeSubDomains` (the operator's other hosts are not the shop's to decide). */
export const HSTS = 'max-age=31536000';

/** Stripe.js (Payment Element) and Connect.js (embedded onboarding), as Stripe documents their CSP needs. */
const STRIPE = {
  script: ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://connect-js.stripe.com'],
  frame: ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com', 'https://connect-js.stripe.com'],
  connect: ['https://api.stripe.com', 'https://connect-js.stripe.com'],
  img: ['https://*.stripe.com'],
};

export interface CspOptions {
  /** per response: Next puts it on its own scripts (read from the request's CSP header) */
  nonce: string;
  /** `next dev`: React's dev build evaluates code and Next's hot reload uses a WebSocket */
  dev: boolean;
  /** STRIPE_PUBLISHABLE_KEY set: the pay and payouts pages load Stripe's scripts and frames */
  stripe: boolean;
  /** the API's origin: listing photos stored on the local disk are served by the API */
  apiOrigin?: string;
}

/**
 * Scripts only with this response's nonce (and what they load: 'strict-dynamic'), nothing framed
 * but Stripe's own frames when configured, no framing of the shop (`frame-ancestors 'none'`), forms
 * post only to the shop, no <base> or plugins. Styles allow inline `style` attributes (the pages
 * use them; Connect.js needs them).
 */
export function contentSecurityPolicy(o: CspOptions): string {
  const list = (...sources: (string | false | undefined)[]) => sources.filter(Boolean).join(' ');
  const directives = {
    'default-src': "'self'",
    'script-src': list("'self'", `'nonce-${o.nonce}'`, "'strict-dynamic'", o.dev && "'unsafe-eval'", ...(o.stripe ? STRIPE.script : [])),
    'style-src': "'self' 'unsafe-inline'",
    'img-src': list("'self'", 'data:', 'blob:', 'https:', o.apiOrigin, ...(o.stripe ? STRIPE.img : [])),
    'font-src': "'self' data:",
    'connect-src': list("'self'", o.dev && 'ws: wss:', ...(o.stripe ? STRIPE.connect : [])),
    'frame-src': o.stripe ? list(...STRIPE.frame) : "'none'",
    'frame-ancestors': "'none'",
    'form-action': "'self'",
    'base-uri': "'self'",
    'object-src': "'none'",
  };
  return Object.entries(directives)
    .map(([k, v]) => `${k} ${v}`)
    .join('; ');
}

/** An origin (`http://127.0.0.1:4000`) of a URL, or undefined when it is not one. */
export function originOf(url: string | undefined): string | undefined {
  return url && URL.canParse(url) ? new URL(url).origin : undefined;
}
