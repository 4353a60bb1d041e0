import 'server-only';
import { createTRPCClient, httpLink, type TRPCClient } from '@trpc/client';
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '@hm/contract/router';
import { headers } from 'next/headers';
import { cache } from 'react';
import type { ApiProblemBody } from './problems';
import { CLIENT_IP_HEADER, devMailboxOpen, devMailboxSetting } from './client';
import { revalidatingFetch } from './revalidating-fetch';
import { feedReader, type FeedReader } from './order-feed';

export type ApiOutputs = inferRouterOutputs<AppRouter>;
export type Api = TRPCClient<AppRouter>;

/** The only place that reads the API's address and the secret key; this module never reaches the browser. */
function required(name: 'API_URL' | 'STOREFRONT_API_KEY'): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: the storefront needs it to call the API.`);
  return value;
}

/** Per-call options: `context: { idempotencyKey }` on a mutation sends it as `Idempotency-Key`. */
export type CallContext = {
  idempotencyKey?: string;
  [key: string]: unknown;
};

/**
 * `X-Client-IP`: the shopper's address as the storefront's server saw it (server.ts decides it, and
 * believes forwarding headers only from STOREFRONT_TRUSTED_PROXIES), for the API's per-IP sign-in
 * limits. The API takes it only with the secret key. None outside a request.
 */
async function clientIp(): Promise<Record<string, string>> {
  try {
    const ip = (await headers()).get(CLIENT_IP_HEADER);
    return ip ? { 'x-client-ip': ip } : {};
  } catch {
    return {};
  }
}

/**
 * The shop's own reads (no user) kept per URL across requests and revalidated with If-None-Match
 * (lib/revalidating-fetch.ts): a 304 costs the API far less than the answer, and nothing is served
 * without asking. A user's calls are never kept.
 */
const shopFetch = revalidatingFetch();

/** `keep`: the shop's own reads kept and revalidated (shopFetch); never for a user, nor for the event feed (a new URL each poll). */
function createClient(session?: string, keep = !session): Api {
  return createTRPCClient<AppRouter>({
    links: [
      // httpLink rather than batching: idempotency keys, rate limits and request ids are per HTTP request on the API side.
      httpLink({
        url: `${required('API_URL').replace(/\/+$/, '')}/trpc`,
        ...(keep ? { fetch: shopFetch } : {}),
        headers: async ({ op }) => {
          const ctx = op.context as CallContext;
          return {
            authorization: `Bearer ${required('STOREFRONT_API_KEY')}`,
            ...(await clientIp()),
            ...(session ? { 'x-user-session': session } : {}),
            ...(ctx.idempotencyKey ? { 'idempotency-key': ctx.idempotencyKey } : {}),
          };
        },
      }),
    ],
  });
}

let client: Api | undefined;

/** The shop's own client (no user), created on first use so that `next build` needs no env. */
export function api(): Api {
  client ??= createClient();
  return client;
}

/** A client acting for the signed-in user (their session token from the httpOnly cookie). */
export function apiAs(session: string): Api {
  return createClient(session);
}

let orders: FeedReader | undefined;
let feedClient: Api | undefined;

/** The process's one reader of the event feed's `order.updated` events (lib/order-feed.ts), on the shop's secret key. */
export function orderFeed(): FeedReader {
  orders ??= feedReader((after) => (feedClient ??= createClient(undefined, false)).events.list.query({ after, types: 'order.updated', limit: 100 }));
  return orders;
}

/** Test helpers exist only behind a test key. */
export function isTestMode(): boolean {
  return required('STOREFRONT_API_KEY').startsWith('sk_test_');
}

/**
 * The dev mailbox (`/<lang>/dev/mailbox`, every email sent with its sign-in links) is for this
 * request: test mode, STOREFRONT_DEV_MAILBOX=loopback (a browser on this machine) or `any`; off by default.
 */
export async function devMailboxAllowed(): Promise<boolean> {
  return devMailboxOpen(await headers(), devMailboxSetting(process.env.STOREFRONT_DEV_MAILBOX), isTestMode());
}

/** Once per request: the metadata, the layout and the page all need it. */
export const getMarketplace = cache(() => api().marketplace.get.query({}));

// The problem shape lives with its translations (lib/problems.ts, importable without the server-only client).
export { problemOf, type ApiProblemBody } from './problems';

/**
 * The photo upload is the one call that is not JSON: the bytes go to the REST route
 * (`POST /v1/me/listings/{id}/images`) with the same key and session. Answers the Image, or the problem.
 */
export async function uploadListingPhoto(
  session: string,
  listingId: string,
  bytes: Uint8Array<ArrayBuffer>,
  contentType: string,
  idempotencyKey?: string,
): Promise<{ ok: true; image: ListingImage } | { ok: false; problem: ApiProblemBody }> {
  const res = await fetch(`${required('API_URL').replace(/\/+$/, '')}/v1/me/listings/${encodeURIComponent(listingId)}/images`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${required('STOREFRONT_API_KEY')}`,
      ...(await clientIp()),
      'x-user-session': session,
      'content-type': contentType || 'application/octet-stream',
      ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
    },
    body: bytes,
  });
  const body = await res.json().catch(() => ({ status: res.status, code: 'internal_error', detail: 'The shop could not read the answer to the upload.', errors: [] }));
  return res.ok ? { ok: true, image: body as ListingImage } : { ok: false, problem: body as ApiProblemBody };
}

export type ListingImage = ApiOutputs['me']['listings']['get']['images'][number];
