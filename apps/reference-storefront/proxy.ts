import { NextResponse, type NextRequest } from 'next/server';

/** The request header that carries the path to the pages Next gives no params (the 404 page). */
export const PATH_HEADER = 'x-shop-path';

/**
 * Hands the requested path to the page render: Next's not-found pages get no params, and without
 * the path a 404 could not speak the page's language.
 */
export function proxy(request: NextRequest) {
  const headers = new Headers(request.headers);
  headers.set(PATH_HEADER, request.nextUrl.pathname);
  return NextResponse.next({ request: { headers } });
}

export const config = { matcher: ['/((?!_next/|icon.svg).*)'] };
