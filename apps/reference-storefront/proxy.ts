import { NextResponse, type NextRequest } from 'next/server';
import { CURRENCY_COOKIE, ONE_YEAR_S } from './lib/currency';

/** The request header that carries the path to the pages Next gives no params (the 404 page). */
export const PATH_HEADER = 'x-shop-path';

/**
 * Two things before a page renders:
 * - hands the requested path to the render: Next's not-found pages get no params, and without the
 *   path a 404 could not speak the page's language;
 * - marks drafts (`/<lang>/preview/…`) as not to be cached or indexed;
 * - remembers the currency a page was asked for (`?currency=EUR`), so the next page shows prices in
 *   it too. Only the shape is checked here; pages use it only when the marketplace sells in it.
 */
export function proxy(request: NextRequest) {
  const headers = new Headers(request.headers);
  headers.set(PATH_HEADER, request.nextUrl.pathname);
  const response = NextResponse.next({ request: { headers } });
  // a page's draft (preview links): never stored by a cache, never indexed
  if (/^\/[^/]+\/preview\//.test(request.nextUrl.pathname)) {
    response.headers.set('Cache-Control', 'private, no-store');
    response.headers.set('X-Robots-Tag', 'noindex, nofollow');
  }
  const currency = request.nextUrl.searchParams.get('currency');
  if (currency && /^[A-Z]{3}$/.test(currency) && request.cookies.get(CURRENCY_COOKIE)?.value !== currency) {
    response.cookies.set(CURRENCY_COOKIE, currency, { path: '/', sameSite: 'lax', httpOnly: true, maxAge: ONE_YEAR_S });
  }
  return response;
}

export const config = { matcher: ['/((?!_next/|icon.svg).*)'] };
