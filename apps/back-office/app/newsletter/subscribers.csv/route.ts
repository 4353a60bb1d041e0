import { apiUrl } from '../../../lib/api';
import { sessionToken } from '../../../lib/session';

/**
 * The CSV download: the app asks GET /console/v1/newsletter/subscribers.csv with the operator's
 * session (the browser never holds the token) and passes the file on as a download. Signed out:
 * the sign-in page.
 */
export async function GET(request: Request): Promise<Response> {
  const token = await sessionToken();
  if (!token) return Response.redirect(new URL('/sign-in', request.url), 303);
  const upstream = await fetch(`${apiUrl()}/console/v1/newsletter/subscribers.csv`, { headers: { authorization: `Bearer ${token}` }, cache: 'no-store' });
  if (upstream.status === 401) return Response.redirect(new URL('/sign-in', request.url), 303);
  if (!upstream.ok) return new Response('The API could not export the sign-ups. Try again in a moment.', { status: 502, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  return new Response(upstream.body, {
    headers: {
      'content-type': upstream.headers.get('content-type') ?? 'text/csv; charset=utf-8',
      'content-disposition': upstream.headers.get('content-disposition') ?? 'attachment; filename="newsletter-subscribers.csv"',
      'cache-control': 'no-store',
    },
  });
}
