import { safe } from '@trpc/client';
import { apiAs, orderFeed, problemOf } from '../../../../../lib/api';
import { sessionToken } from '../../../../../lib/session';

export const dynamic = 'force-dynamic';

type Params = { params: Promise<{ lang: string; id: string }> };

/** How long one wait lasts: then the page refreshes anyway (the fallback when no event comes). */
const WAIT_MS = 25_000;

const json = (body: unknown, status = 200) => Response.json(body, { status, headers: { 'cache-control': 'no-store' } });

/**
 * The order page's wait while the payment is being confirmed (order-forms.tsx `WaitForOrder`): answers
 * `{changed: true}` when the order's next `order.updated` event arrives in the API's event feed (read
 * by this server, lib/order-feed.ts), or `{changed: false}` after 25 s; the page refreshes either way.
 * The order is read with the shopper's session first: only its buyer or seller waits, and a change
 * made before the wait began answers at once.
 */
export async function GET(request: Request, { params }: Params) {
  const { id } = await params;
  const token = await sessionToken();
  if (!token) return json({ signedOut: true }, 401);
  const feed = orderFeed();
  // the API away: the reader keeps trying, and this wait ends like one without an event
  const timedOut = new Promise<false>((r) => setTimeout(() => r(false), WAIT_MS));
  if (!(await Promise.race([feed.caughtUp().then(() => true), timedOut]))) return json({ changed: false });
  const controller = new AbortController();
  const waiting = feed.waitForOrder(id, { timeoutMs: WAIT_MS, signal: AbortSignal.any([controller.signal, request.signal]) });
  const [order, error] = await safe(apiAs(token).me.orders.get.query({ id }));
  if (error || order.state !== 'pending_payment') {
    controller.abort();
    await waiting;
    return error ? json({ changed: false }, problemOf(error)?.status ?? 502) : json({ changed: true });
  }
  return json({ changed: await waiting });
}
