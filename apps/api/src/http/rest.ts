import type { FastifyInstance, FastifyRequest } from 'fastify';
import { fastifyTRPCOpenApiPlugin } from 'trpc-to-openapi';
import type { AnyTRPCRouter } from '@trpc/server';
import type { MikroORM } from '@hm/db/orm';
import type { AuthenticatedKey, Clock } from '@hm/domain/context';
import type { Problem } from '@hm/domain/errors';
import { keyRefusal, sessionRefusal } from '@hm/domain/trpc';
import { PROBLEM_JSON, logServerError, problem, refuse, sendProblem } from './problem.js';
import { JSON_MEDIA_TYPE } from './client-input.js';
import { checkRestInput } from './rest-input.js';
import { matchRoute, type RestRoute } from './route-table.js';
import { keepBodiesStrict } from './strict-bodies.js';
import { sessionTokenOf, type CreateContext } from './context.js';

/**
 * /v1: the router through trpc-to-openapi. That adapter answers 200 with its own error body; here
 * success statuses come from each procedure's `successStatus` and every error leaves as the problem
 * our tRPC error formatter built (`data.problem`), as application/problem+json.
 *
 * The hooks are added before the idempotency hooks of the same scope (see app.ts), so a stored
 * response is the problem the client got, not the adapter's body.
 */
/** The operation each /v1 request was matched to in onRequest, for the input checks once its body is read. */
const restRequests = new WeakMap<FastifyRequest, { route: RestRoute; path: string }>();

export function addRestHooks(scope: FastifyInstance, routes: RestRoute[], orm: MikroORM, clock: Clock) {
  // A `/v1/me…` call without `X-User-Session`: the procedure's own answer, known without a lookup.
  const missingSession = (req: FastifyRequest) =>
    sessionTokenOf(req) === undefined ? sessionRefusal(orm, req.apiAuth as AuthenticatedKey, undefined, clock.now()) : Promise.resolve(undefined);

  scope.addHook('onRequest', async (req, reply) => {
    if (req.routeOptions.url !== '/v1/*') return; // our own routes (openapi.json, raw uploads)
    const path = new URL(req.url, 'http://x').pathname.replace(/^\/v1/, '') || '/';
    const { route, allowed } = matchRoute(routes, req.method === 'HEAD' ? 'GET' : req.method, path);
    if (!route) {
      if (allowed.length) {
        return sendProblem(reply, problem('method_not_allowed', `${req.method} is not allowed on ${req.url.split('?')[0]}; use ${allowed.join(' or ')}.`), { Allow: allowed.join(', ') });
      }
      return sendProblem(reply, problem('not_found', `No endpoint ${req.method} ${req.url.split('?')[0]}. See /v1/openapi.json.`));
    }
    // Tokens and personal data (sign-in, /me…, anything a secret key or a user session reads) never sit in a cache.
    if (route.meta.auth === 'secret' || route.meta.auth === 'session' || req.headers['x-user-session'] !== undefined) reply.header('Cache-Control', 'no-store');
    for (const [name, value] of Object.entries(route.meta.headers ?? {})) reply.header(name, value);
    // Who may call is known from the headers: refuse before reading a body (the procedure checks again).
    const refusal = keyRefusal(route.meta.auth, req.apiAuth) ?? (route.meta.auth === 'session' ? await missingSession(req) : undefined);
    if (refusal) return refuse(req, reply, refusal);
    restRequests.set(req, { route, path });
  });

  // The body is parsed (app.ts): what every operation's input must be, all invalid fields listed (rest-input.ts).
  scope.addHook('preValidation', async (req) => {
    const matched = restRequests.get(req);
    if (matched) await checkRestInput(req, matched.route, matched.path);
  });

  // Bodiless POST/DELETE calls (e.g. "end this session") need no Content-Type; a JSON body parsed
  // under any spelling of a JSON media type (app.ts) is handed on as plain \`application/json\`,
  // the one trpc-to-openapi knows.
  scope.addHook('preValidation', async (req) => {
    const type = req.headers['content-type'];
    if (type === undefined ? req.body === undefined || req.body === null : JSON_MEDIA_TYPE.test(type)) req.headers['content-type'] = 'application/json';
  });

  scope.addHook('onSend', async (req, reply, payload) => {
    // 202/204 without a body: no Content-Type claiming JSON
    if ((reply.statusCode === 202 || reply.statusCode === 204) && (payload === undefined || payload === '' || payload === null)) {
      reply.removeHeader('content-type');
      return payload;
    }
    if (typeof payload !== 'string' || reply.statusCode < 400 || !String(reply.getHeader('content-type') ?? '').startsWith('application/json')) return payload;
    let parsed: { data?: { problem?: Problem } };
    try {
      parsed = JSON.parse(payload);
    } catch {
      return payload;
    }
    const p = parsed.data?.problem;
    if (!p) return payload;
    reply.code(p.status).type(PROBLEM_JSON);
    return JSON.stringify(p);
  });
}

export async function registerRest(scope: FastifyInstance, router: AnyTRPCRouter, routes: RestRoute[], createContext: CreateContext) {
  const byProcedure = new Map(routes.map((r) => [r.procedurePath, r]));
  keepBodiesStrict(router, routes);

  // The adapter's async handler resolves with nothing after reply.send(); while an async onSend hook
  // (idempotency storing the answer) is still running, Fastify then sends a second, empty reply.
  // Returning the reply (a thenable) makes Fastify wait for the one response instead.
  // The adapter hands the reply to tRPC's incomingMessageToRequest as the Node response, which aborts
  // the request's signal when the response closes before `writableEnded`; a Fastify reply has no such
  // property, so every request was aborted after its answer (a DOMException and an abort event each:
  // about 7 % of GET /v1/marketplace's CPU in a profile). Read it from the raw response.
  scope.decorateReply('writableEnded', {
    getter(this: { raw: { writableEnded: boolean } }) {
      return this.raw.writableEnded;
    },
  });
  scope.addHook('onRoute', (route) => {
    if (!route.url.endsWith('/*')) return;
    const handler = route.handler;
    route.handler = async function (this: unknown, req, reply) {
      await handler.call(this as never, req, reply);
      return reply;
    };
  });

  await scope.register(fastifyTRPCOpenApiPlugin, {
    basePath: '/',
    router,
    createContext: ({ req }: { req: unknown }) => createContext(req as never, 'rest'),
    responseMeta: ({ paths, errors }: { paths?: string[]; errors: { cause?: unknown }[] }) => {
      const route = paths?.[0] ? byProcedure.get(paths[0]) : undefined;
      if (errors.length) {
        const cause = errors[0]?.cause as { headers?: Record<string, string> } | undefined;
        return { headers: cause?.headers ?? {} };
      }
      return { status: route?.meta.successStatus ?? 200, headers: {} };
    },
    // The adapter turns every error into a response; without this, unexpected ones left no log line.
    onError: ({ error, req }: { error: Error; req: { log: FastifyInstance['log'] } }) => logServerError(req.log, error, 'unexpected error in procedure'),
  } as never);
}
