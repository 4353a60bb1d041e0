import { NextResponse, type NextRequest } from 'next/server';
import { CURRENCY_COOKIE, ONE_YEAR_S } from './lib/currency';

/**
 * Remembers the currency a page was asked for (`?currency=EUR`), so the next page shows prices in it
 * too. Only the shape is checked here; pages use it only when the marketplace sells in it.
 */
export function proxy(request: NextRequest) {
  const response = NextResponse.next();
  const currency = request.nextUrl.searchParams.get('currency');
  if (currency && /^[A-Z]{3}$/.test(currency) && request.cookies.get(CURRENCY_COOKIE)?.value !== currency) {
    response.cookies.set(CURRENCY_COOKIE, currency, { path: '/', sameSite: 'lax', httpOnly: true, maxAge: ONE_YEAR_S });
  }
  return response;
}

export const config = { matcher: [{ source: '/:lang/:path*', has: [{ type: 'query', key: 'currency' }] }] };
