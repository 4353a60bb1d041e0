import type { FastifyRequest } from 'fastify';
import type { AnyTRPCRouter } from '@trpc/server';
import { restDispatcher, type RestDispatcher, type RestRoute } from '@hm/rest';
import type { MikroORM } from '@hm/db/orm';
import type { AuthenticatedKey, Clock } from '@hm/domain/core';
import { describeErrors, DomainError, HttpError, listed, ValidationError, type Problem } from '@hm/contract/problems';
import { keyRefusal, sessionRefusal, toProblem, zodIssuesToFieldErrors, type Meta } from '@hm/contract/trpc';
import { shown } from './client-input.js';
import { logServerError, refuse, sendProblem } from './problem.js';
import { sessionTokenOf, type CreateContext } from './context.js';
import type { ReadCache, Shows } from './read-cache.js';
import { todayOf } from '@hm/domain/rates';

/**
 * /v1: the procedures by their OpenAPI meta, dispatched by @hm/rest (packages/rest). What is ours
 * is given to it here: who may call (key and session refusals before the body is read), the
 * response headers a route's meta asks for, the context, and problems — the dispatcher's own
 * refusals as HttpErrors (the app's error handler answers them, with their Allow header), and every procedure error as
 * the problem our tRPC error formatter built (`data.problem`), as application/problem+json.
 */
/** A public read's caching: a few seconds fresh, then served stale for up to a minute while a cache asks again. */
export const PUBLIC_CACHE_CONTROL = 'public, max-age=5, stale-while-revalidate=60';
export const PRIVATE_CACHE_CONTROL = 'private, no-store';

/** Tokens and personal data (sign-in, /me…, anything a secret key or a user session reads) never sit in a shared cache. */
const personal = (req: FastifyRequest, route: RestRoute<Meta>) => route.meta.auth === 'secret' || route.meta.auth === 'session' || route.meta.auth === 'operator' || req.headers['x-user-session'] !== undefined;

export function restForApi(router: AnyTRPCRouter, routes: RestRoute<Meta>[], orm: MikroORM, clock: Clock, createContext: CreateContext, reads?: ReadCache): RestDispatcher {

  return restDispatcher<Meta, ReturnType<CreateContext>>({
    router,
    routes,
    createContext: (req) => createContext(req, 'rest'),
    zodErrors: zodIssuesToFieldErrors,
    conditional: {
      // A read answered from the key's marketplace alone is kept with that marketplace object: the key
      // cache hands the same object to every request until it reads the key again (API_KEY_CACHE_MS).
      // A public read without a session (`publicRead`) is kept with the read cache's current version
      // of the marketplace's public data, per key kind and day (read-cache.ts): dropped when a change
      // to it commits.
      keepAnswerFor(req, route) {
        const auth = req.apiAuth;
        if (auth === undefined || auth instanceof Error) return undefined;
        if (route.meta.touchesNoTable) return auth.marketplace;
        if (!reads || !route.meta.publicRead || personal(req, route) || req.readsSeen === undefined) return undefined;
        return reads.ownerFor(auth.marketplace.id, `${auth.kind} ${todayOf(clock.now())}`, req.readsSeen);
      },
      // ...under the listings it shows, so that a change to one listing alone drops only those (read-cache.ts)
      keysOf(req, route, data) {
        const auth = req.apiAuth;
        if (!reads || route.meta.touchesNoTable || !route.meta.publicRead || auth === undefined || auth instanceof Error || req.readsSeen === undefined) return [];
        return reads.keysFor(auth.marketplace.id, req.readsSeen, listingsShown(req, route.meta, data));
      },
      // Public data, the same for every caller with a key of this marketplace: a CDN in front of the
      // storefront may keep it briefly and serve it while it asks again (per key: Vary). Personal
      // answers were marked `private, no-store` when the route matched, and keep it.
      cacheControl: (req, route) => (personal(req, route) || route.meta.headers?.['Cache-Control'] !== undefined ? undefined : PUBLIC_CACHE_CONTROL),
    },
    // cut to the listed errors before anything else walks them
    refusal: (code, detail, { errors = [], headers }) => (code === 'validation_failed' ? new ValidationError(listed(errors, shown), describeErrors(errors)) : new HttpError(code, detail ?? '', { errors: listed(errors, shown), headers })),
    // not async: most requests are decided here at once (a promise only for a `/v1/me…` call without a session)
    onMatch(req, reply, route) {
      if (personal(req, route)) reply.header('Cache-Control', PRIVATE_CACHE_CONTROL);
      else if (route.method === 'GET') reply.header('Vary', 'Authorization');
      if (route.meta.headers) for (const [name, value] of Object.entries(route.meta.headers)) reply.header(name, value);
      // Who may call is known from the headers: refuse before reading a body (the procedure checks again).
      const refusal = operatorRefusal(req, route.meta) ?? keyRefusal(route.meta.auth, req.apiAuth);
      if (refusal) return refuse(req, reply, refusal);
      // A `/v1/me…` call without `X-User-Session`: the procedure's own answer, known without a lookup.
      if (route.meta.auth !== 'session' || sessionTokenOf(req) !== undefined) return undefined;
      return sessionRefusal(orm, req.apiAuth as AuthenticatedKey, undefined, clock.now()).then((missing) => (missing ? refuse(req, reply, missing) : undefined));
    },
    sendError(req, reply, { error, shape, route, input }) {
      logServerError(req.log, error, 'unexpected error in procedure');
      const p = (shape as { data?: { problem?: Problem } }).data?.problem ?? toProblem(error, route.meta, input);
      const headers = (error.cause as { headers?: Record<string, string> } | undefined)?.headers ?? {};
      return sendProblem(reply, p, headers);
    },
  });
}

/** The sorts that do not look at favourite counts (`popular` does, and a sort not known here is taken to). */
const FAVOURITE_BLIND_SORTS = new Set(['relevance', 'newest', 'price_asc', 'price_desc']);

/** The listings a public read's answer shows (`showsListings`), and whether favourite counts order it. */
function listingsShown(req: FastifyRequest, meta: Meta, data: unknown): Shows {
  if (meta.showsListings === 'one') return { listings: [(data as { id: string }).id], byFavourites: false };
  if (meta.showsListings !== 'page') return { listings: [], byFavourites: false };
  const sort = (req.query as Record<string, unknown> | undefined)?.sort;
  return { listings: (data as { items: { id: string }[] }).items.map((l) => l.id), byFavourites: !(sort === undefined || (typeof sort === 'string' && FAVOURITE_BLIND_SORTS.has(sort))) };
}

/** Back-office routes (`auth: 'operator'`) with no operator token: refused before the body is read. */
function operatorRefusal(req: FastifyRequest, meta: Meta): DomainError | undefined {
  if (meta.auth !== 'operator' || req.operatorToken !== undefined) return undefined;
  return new DomainError('operator_session_required', 'Sign in to the console: send "Authorization: Bearer ops_…" (the token from POST /console/v1/sessions).');
}
