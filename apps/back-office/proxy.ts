import { NextResponse, type NextRequest } from 'next/server';
import { contentSecurityPolicy, HSTS, originOf, STATIC_SECURITY_HEADERS } from '../reference-storefront/lib/security-headers';

/**
 * Before every page and server action: the storefront's security headers (one definition,
 * apps/reference-storefront/lib/security-headers.ts) — a CSP with a fresh nonce (also on the
 * request, where Next finds it for its scripts), no framing, nosniff, the Referrer-Policy, HSTS when
 * the app is served over https — and nothing of the team's is ever cached or indexed.
 */
export function proxy(request: NextRequest) {
  const nonce = btoa(crypto.randomUUID());
  const csp = contentSecurityPolicy({ nonce, dev: process.env.NODE_ENV !== 'production', stripe: false, apiOrigin: originOf(process.env.API_URL) });
  const headers = new Headers(request.headers);
  headers.set('content-security-policy', csp);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set('Content-Security-Policy', csp);
  for (const [name, value] of Object.entries(STATIC_SECURITY_HEADERS)) response.headers.set(name, value);
  response.headers.set('Cache-Control', 'private, no-store');
  response.headers.set('X-Robots-Tag', 'noindex, nofollow');
  if (request.headers.get('x-forwarded-proto') === 'https' || (process.env.BACK_OFFICE_URL ?? '').startsWith('https:')) response.headers.set('Strict-Transport-Security', HSTS);
  return response;
}

export const config = { matcher: ['/((?!_next/|icon.svg).*)'] };
