import { safe } from '@trpc/client';
import { apiAs, problemOf, uploadListingPhoto } from '../../../../../../lib/api';
import { problemMessages } from '../../../../../../lib/messages-problems';
import { explainProblem } from '../../../../../../lib/problems';
import { sessionToken } from '../../../../../../lib/session';

export const dynamic = 'force-dynamic';

type Params = { params: Promise<{ lang: string; id: string }> };

// the API takes up to 20 MiB; a little more lets the API, not us, say what the limit is
const MAX_BYTES = 21 * 1024 * 1024;

const json = (body: unknown, status = 200) => Response.json(body, { status, headers: { 'cache-control': 'no-store' } });

/**
 * The photo manager's two calls that are not server actions: the upload (bytes in the body, so
 * the browser can report progress) and the status poll while photos are being processed.
 */
export async function GET(_: Request, { params }: Params) {
  const { lang, id } = await params;
  const token = await sessionToken();
  if (!token) return json({ signedOut: true }, 401);
  const [listing, error] = await safe(apiAs(token).me.listings.get.query({ id }));
  if (error) return json({ message: explainProblem(problemOf(error), lang).message }, problemOf(error)?.status ?? 502);
  return json({ status: listing.status, images: listing.images });
}

/**
 * The post's `Origin` names this shop's host. `X-Forwarded-Host` counts only as server.ts leaves it:
 * from a proxy in STOREFRONT_TRUSTED_PROXIES, else the request's own `Host`. A missing, `null` or
 * unparsable origin is foreign.
 */
function sameOrigin(request: Request): boolean {
  const origin = request.headers.get('origin');
  const host = request.headers.get('x-forwarded-host') ?? request.headers.get('host');
  if (!origin || !host || !URL.canParse(origin)) return false;
  return new URL(origin).host === host;
}

export async function POST(request: Request, { params }: Params) {
  const { lang, id } = await params;
  // Server actions check where a post comes from; this route does the same, so no other site can upload with the cookie.
  if (!sameOrigin(request)) return json({ message: explainProblem({ status: 403, code: 'forbidden', detail: '', errors: [] }, lang).message }, 403);
  const token = await sessionToken();
  if (!token) return json({ signedOut: true }, 401);
  const declared = Number(request.headers.get('content-length') ?? '0');
  const tooLarge = () => json({ message: explainProblem({ status: 413, code: 'payload_too_large', detail: '', errors: [] }, lang).message }, 413);
  if (declared > MAX_BYTES) return tooLarge();
  const bytes = new Uint8Array(await request.arrayBuffer());
  if (bytes.byteLength > MAX_BYTES) return tooLarge();
  const res = await uploadListingPhoto(token, id, bytes, request.headers.get('content-type') ?? '', request.headers.get('idempotency-key') ?? undefined);
  if (!res.ok) {
    // the one conflict an upload meets on an editable listing is the photo limit
    const full = res.problem.code === 'conflict' && /photos/.test(res.problem.detail);
    const message = full ? problemMessages(lang).rules.tooManyPhotos : explainProblem(res.problem, lang).message;
    return json({ message, signedOut: res.problem.status === 401 }, res.problem.status);
  }
  return json({ image: res.image }, 202);
}
