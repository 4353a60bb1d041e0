import 'server-only';
import { createTRPCClient, httpLink, type TRPCClient } from '@trpc/client';
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '@hm/domain/router';
import { cache } from 'react';

export type ApiOutputs = inferRouterOutputs<AppRouter>;

/** The only place that reads the API's address and the secret key; this module never reaches the browser. */
function required(name: 'API_URL' | 'STOREFRONT_API_KEY'): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: the storefront needs it to call the API.`);
  return value;
}

let client: TRPCClient<AppRouter> | undefined;

/**
 * The typed client, created on first use so that `next build` needs no env. httpLink rather than
 * batching: idempotency keys, rate limits and request ids are per HTTP request on the API side.
 */
export function api(): TRPCClient<AppRouter> {
  client ??= createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: `${required('API_URL').replace(/\/+$/, '')}/trpc`,
        headers: { authorization: `Bearer ${required('STOREFRONT_API_KEY')}` },
      }),
    ],
  });
  return client;
}

/** Once per request: the metadata, the layout and the page all need it. */
export const getMarketplace = cache(() => api().marketplace.get.query({}));

/** What to tell the shopper when a call failed (pass the error half of `safe()`'s result). */
export function problemDetail(error: Error & { data?: { problem: { detail: string } } | null }): string {
  // A caught error never reaches Next's logger; log it here so operators see it.
  console.error(`API call failed: ${error.message}`);
  // No problem in the error means the API was not reached at all (down, DNS, timeout).
  return error.data?.problem.detail ?? 'The shop cannot reach its catalogue right now. Please try again in a moment.';
}
