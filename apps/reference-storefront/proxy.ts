import { NextResponse, type NextRequest } from 'next/server';
import { cookieOptions } from './lib/cookies';
import { CURRENCY_COOKIE, ONE_YEAR_S } from './lib/currency';
import { contentSecurityPolicy, HSTS, originOf, STATIC_SECURITY_HEADERS } from './lib/security-headers';

/** The request header that carries the path to the pages Next gives no params (the 404 page). */
export const PATH_HEADER = 'x-shop-path';

/**
 * Before a page, route or server action runs:
 * - hands the requested path to the render: Next's not-found pages get no params, and without the
 *   path a 404 could not speak the page's language;
 * - security headers on the response (lib/security-headers.ts): a CSP with a fresh nonce (also on
 *   the request, where Next finds it and puts it on its scripts), no framing, nosniff, the
 *   Referrer-Policy, and HSTS when the shop is served over https (said by a trusted proxy's
 *   `X-Forwarded-Proto`, see server.ts, or by an https STOREFRONT_URL);
 * - marks drafts (`/<lang>/preview/…`) as not to be cached or indexed;
 * - remembers the currency a page was asked for (`?currency=EUR`), so the next page shows prices in
 *   it too. Only the shape is checked here; pages use it only when the marketplace sells in it.
 */
export function proxy(request: NextRequest) {
  const nonce = btoa(crypto.randomUUID());
  const csp = contentSecurityPolicy({
    nonce,
    dev: process.env.NODE_ENV !== 'production',
    stripe: !!process.env.STRIPE_PUBLISHABLE_KEY,
    apiOrigin: originOf(process.env.API_URL),
  });
  const headers = new Headers(request.headers);
  headers.set(PATH_HEADER, request.nextUrl.pathname);
  headers.set('content-security-policy', csp);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set('Content-Security-Policy', csp);
  for (const [name, value] of Object.entries(STATIC_SECURITY_HEADERS)) response.headers.set(name, value);
  if (request.headers.get('x-forwarded-proto') === 'https' || (process.env.STOREFRONT_URL ?? '').startsWith('https:')) response.headers.set('Strict-Transport-Security', HSTS);
  // a page's draft (preview links): never stored by a cache, never indexed
  if (/^\/[^/]+\/preview\//.test(request.nextUrl.pathname)) {
    response.headers.set('Cache-Control', 'private, no-store');
    response.headers.set('X-Robots-Tag', 'noindex, nofollow');
  }
  const currency = request.nextUrl.searchParams.get('currency');
  if (currency && /^[A-Z]{3}$/.test(currency) && request.cookies.get(CURRENCY_COOKIE)?.value !== currency) {
    response.cookies.set(CURRENCY_COOKIE, currency, cookieOptions(ONE_YEAR_S));
  }
  return response;
}

export const config = { matcher: ['/((?!_next/|icon.svg).*)'] };
