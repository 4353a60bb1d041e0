import type { FastifyInstance, FastifyRequest } from 'fastify';
import { acceptsRequestBody, coerceSchema, getInputOutputParsers, instanceofZodTypeLikeVoid, instanceofZodTypeObject, instanceofZodTypeOptional, unwrapZodType } from 'trpc-to-openapi';
import { TRPCError, type AnyTRPCRouter } from '@trpc/server';
import { getErrorShape } from '@trpc/server/unstable-core-do-not-import';
import { ZodArray } from 'zod/v4';
import type { MikroORM } from '@hm/db/orm';
import type { AuthenticatedKey, Clock, Context } from '@hm/domain/core';
import type { Problem } from '@hm/contract/problems';
import { keyRefusal, sessionRefusal, toProblem } from '@hm/contract/trpc';
import { logServerError, problem, refuse, sendProblem } from './problem.js';
import { JSON_MEDIA_TYPE } from './client-input.js';
import { checkRestInput } from './rest-input.js';
import { matchRoute, type RestRoute } from './route-table.js';
import { keepBodiesStrict } from './strict-bodies.js';
import { sessionTokenOf, type CreateContext } from './context.js';

/**
 * /v1: success statuses come from each procedure's `successStatus` and every error leaves as the
 * problem our tRPC error formatter built (`data.problem`), as application/problem+json.
 *
 * The hooks are added before the idempotency hooks of the same scope (see app.ts).
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
  // Then: bodiless POST/DELETE calls (e.g. "end this session") need no Content-Type; a JSON body
  // parsed under any spelling of a JSON media type (app.ts) is handed on as plain
  // \`application/json\`, the one the operations take (registerRest). One hook: each costs every request.
  scope.addHook('preValidation', async (req) => {
    const matched = restRequests.get(req);
    if (matched) await checkRestInput(req, matched.route, matched.path);
    const type = req.headers['content-type'];
    if (type === undefined ? req.body === undefined || req.body === null : JSON_MEDIA_TYPE.test(type)) req.headers['content-type'] = 'application/json';
  });

  // 202/204 without a body: no Content-Type claiming JSON
  scope.addHook('onSend', async (_req, reply, payload) => {
    if ((reply.statusCode === 202 || reply.statusCode === 204) && (payload === undefined || payload === '' || payload === null)) reply.removeHeader('content-type');
    return payload;
  });
}

/**
 * /v1 operations: each request goes to the procedure the route table matched in onRequest, called
 * the way trpc-to-openapi 3.3's node-http handler called it (its core.mjs, followed step for step
 * below): the input from the body, or from the query (empty values left out, an array field's single
 * value as a one-item array), then the path parameters; query coercion on for the schema; the
 * procedure called with the request's context; success as JSON with the operation's status; errors
 * through tRPC's error shape, in which our formatter put the problem. What it also did per request
 * and nothing used is left out: parsing the URL and matching every route again, a WHATWG Request
 * with an AbortController for a signal no procedure was given, a router caller proxy, walking the
 * input schema to coerce it again, and an error body that a hook parsed back into the problem. The
 * OpenAPI document still comes from trpc-to-openapi, from the same procedures and meta (openapi.ts).
 */
export async function registerRest(scope: FastifyInstance, router: AnyTRPCRouter, routes: RestRoute[], createContext: CreateContext) {
  keepBodiesStrict(router, routes);
  const config = router._def._config;
  const operations = new Map(routes.map((route) => [route, operationOf(router, route)]));

  scope.route({
    method: ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'],
    url: '/*',
    handler: async (req, reply) => {
      const matched = restRequests.get(req);
      const op = matched && operations.get(matched.route);
      // HEAD on a GET operation: the adapter's answer (no procedure runs); unmatched paths never get here (onRequest)
      if (!op || req.method === 'HEAD') return reply.code(204).header('Content-Type', 'application/json').send();
      let input: unknown;
      let ctx: Context | undefined;
      try {
        const contentType = req.headers['content-type'];
        if (op.useBody && !contentType?.startsWith('application/json')) {
          throw new TRPCError({ code: 'UNSUPPORTED_MEDIA_TYPE', message: contentType ? `Unsupported content-type "${contentType}` : 'Missing content-type header' });
        }
        if (!op.takesNoInput) input = { ...(op.useBody ? (req.body as object | undefined) : queryInput(req.query as Record<string, unknown>, op.arrayKeys)), ...pathInput(op, matched!.path) };
        op.coerce();
        ctx = createContext(req, 'rest');
        const data = await op.procedure({ path: op.path, getRawInput: rawInput(input), ctx, type: op.type, signal: undefined, batchIndex: 0 });
        return reply.code(matched!.route.meta.successStatus ?? 200).header('Content-Type', 'application/json').send(JSON.stringify(data));
      } catch (cause) {
        const error = errorOf(cause);
        logServerError(req.log, error, 'unexpected error in procedure');
        const shape = getErrorShape({ config, error, type: op.type, path: op.path, input, ctx }) as { data?: { problem?: Problem } };
        const p = shape.data?.problem ?? toProblem(error, matched!.route.meta, input);
        const headers = (error.cause as { headers?: Record<string, string> } | undefined)?.headers ?? {};
        return sendProblem(reply, p, headers);
      }
    },
  });
}

type Procedure = ((opts: { path: string; getRawInput: () => Promise<unknown>; ctx: Context; type: 'query' | 'mutation'; signal: undefined; batchIndex: number }) => Promise<unknown>) & {
  _def: { type: 'query' | 'mutation'; inputs: unknown[] };
};

/** What a route needs per request, worked out once. */
function operationOf(router: AnyTRPCRouter, route: RestRoute) {
  const procedure = (router._def.procedures as Record<string, Procedure>)[route.procedurePath]!;
  const { inputParser } = getInputOutputParsers(procedure as never);
  const schema = unwrapZodType(inputParser as never, true);
  const useBody = acceptsRequestBody(route.method as Parameters<typeof acceptsRequestBody>[0]);
  const isObject = instanceofZodTypeObject(schema);
  // the query names whose field is an array (or an optional one): a single value becomes a one-item array
  const arrayKeys = !isObject || useBody ? [] : Object.entries(schema.shape).flatMap(([key, field]) => (field instanceof ZodArray || (instanceofZodTypeOptional(field) && field.unwrap() instanceof ZodArray) ? [key] : []));
  let coerced = !isObject;
  return {
    procedure,
    path: route.procedurePath,
    type: procedure._def.type,
    useBody,
    takesNoInput: instanceofZodTypeLikeVoid(schema),
    arrayKeys,
    pathPattern: new RegExp(`^${normalizePath(route.path).replace(/\{(.+?)\}/g, (_, key: string) => `(?<${key}>[^/]+)`)}$`, 'i'),
    /** query and path values are text: the adapter turned coercion on for the schema at its first call (bodies stay strict, strict-bodies.ts) */
    coerce() {
      if (coerced) return;
      coerceSchema(schema as never);
      coerced = true;
    },
  };
}

/** The path parameters as the adapter passed them: as sent (not percent-decoded), from the path without a trailing slash. */
function pathInput(op: ReturnType<typeof operationOf>, path: string): Record<string, string> {
  return op.pathPattern.exec(normalizePath(path))?.groups ?? {};
}

/** The query as the adapter read it: empty values left out, a name given once as its value, then arrays' single values wrapped. */
function queryInput(query: Record<string, unknown>, arrayKeys: string[]): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const key of Object.keys(query)) {
    const value = query[key];
    if (value) input[key] = Array.isArray(value) && value.length === 1 ? value[0] : value;
  }
  for (const key of arrayKeys) if (input[key] !== undefined && !Array.isArray(input[key])) input[key] = [input[key]];
  return input;
}

/** Made outside the handler: a function named where it is made costs a `__name` call per request under tsx (esbuild keepNames). */
const rawInput = (input: unknown) => async () => input;

const normalizePath = (path: string) => `/${path.replace(/^\/|\/$/g, '')}`;

/** A thrown value as a TRPCError (anything else is an internal error keeping its cause and stack). */
function errorOf(cause: unknown): TRPCError {
  if (cause instanceof Error && cause.name === 'TRPCError') return cause as TRPCError;
  const error = new TRPCError({ message: 'Internal server error', code: 'INTERNAL_SERVER_ERROR', cause: cause instanceof Error ? cause : undefined });
  if (cause instanceof Error && cause.stack) error.stack = cause.stack;
  return error;
}
