import 'server-only';
import { createTRPCClient, httpLink, type TRPCClient } from '@trpc/client';
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { BackOfficeRouter } from '@hm/contract/back-office';

export type ConsoleOutputs = inferRouterOutputs<BackOfficeRouter>;
export type ConsoleInputs = inferRouterInputs<BackOfficeRouter>;
export type Console = TRPCClient<BackOfficeRouter>;

/** The only place that reads the API's address; this module never reaches the browser. */
export function apiUrl(): string {
  const value = process.env.API_URL;
  if (!value) throw new Error('API_URL is not set: the back office needs it to call the API.');
  return value.replace(/\/+$/, '');
}

/** Per-call options: `context: { idempotencyKey }` on a mutation sends it as `Idempotency-Key`. */
export type CallContext = { idempotencyKey?: string; [key: string]: unknown };

/**
 * The back office's typed client of /console/trpc. The app holds no key of its own: every call is
 * made with the signed-in operator's session token (`Authorization: Bearer ops_…`), so the API
 * decides what this operator may read and change (a viewer's write is 403 there, whatever the pages
 * show). No session: only sign-in and invitations work.
 */
export function consoleApi(session?: string): Console {
  return createTRPCClient<BackOfficeRouter>({
    links: [
      // httpLink rather than batching: idempotency keys and request ids are per HTTP request on the API side.
      httpLink({
        url: `${apiUrl()}/console/trpc`,
        headers: ({ op }) => {
          const ctx = op.context as CallContext;
          return {
            ...(session ? { authorization: `Bearer ${session}` } : {}),
            ...(ctx.idempotencyKey ? { 'idempotency-key': ctx.idempotencyKey } : {}),
          };
        },
      }),
    ],
  });
}
