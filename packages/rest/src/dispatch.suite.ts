import Fastify, { type FastifyError } from 'fastify';
import { initTRPC } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { z } from 'zod';
import { afterAll, beforeAll } from 'vitest';
import { restDispatcher, type RestRefusal } from './dispatch.js';
import { httpLocation } from './input.js';
import { restRoutes, type RestRoute } from './routes.js';
import type { FieldError } from './text.js';

/**
 * Shared by the dispatcher's test files. A small app of its own: the dispatcher knows nothing of it
 * but what it is given.
 */
type Meta = OpenApiMeta<{ successStatus?: 200 | 201 | 204 }>;
type Ctx = { caller: string | undefined };
export const t = initTRPC
  .context<Ctx>()
  .meta<Meta>()
  .create({ errorFormatter: ({ shape, error, input }) => ({ ...shape, data: { ...shape.data, formattedWith: input, cause: error.cause?.message } }) });
export const op = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: `/${string}`, successStatus?: 201 | 204) => t.procedure.meta({ openapi: { method, path }, successStatus });

/** every procedure call, in order */
export const calls: { path: string; input: unknown; ctx: Ctx }[] = [];
const seen =
  (path: string) =>
  ({ input, ctx }: { input: unknown; ctx: Ctx }) => {
    calls.push({ path, input, ctx });
    return { input };
  };
export const count = z.number().int();
const router = t.router({
  list: op('GET', '/things')
    .input(z.object({ limit: z.number().int().max(100).optional(), flag: z.boolean().optional(), tag: z.array(z.string()).optional(), csv: z.string().optional(), q: z.string().optional() }).strict())
    .query(seen('list')),
  sorted: op('GET', '/sorted')
    .input(z.object({ sort: z.enum(['new', 'old']).optional(), seller: z.uuid().optional(), lang: z.string().min(1).max(5).optional(), ids: z.array(z.uuid()).optional(), q: z.string().optional(), limit: z.number().int().optional() }).strict())
    .query(seen('sorted')),
  get: op('GET', '/things/{id}').input(z.object({ id: z.string().max(10) })).query(seen('get')),
  create: op('POST', '/things', 201).input(z.object({ name: z.string(), count, flag: z.boolean().optional() }).strict()).mutation(seen('create')),
  update: op('PUT', '/things/{id}').input(z.object({ id: z.string(), name: z.string().optional(), count: z.number().optional() }).strict()).mutation(seen('update')),
  remove: op('DELETE', '/things/{id}', 204).input(z.object({ id: z.string() })).mutation(() => undefined),
  boom: op('GET', '/boom').input(z.void()).query(() => {
    throw new Error('disk on fire');
  }),
});

/** Zod issues at plain paths, an unknown key at its own (as an app would word them). */
const issueErrors = (error: z.ZodError, input: unknown): FieldError[] =>
  error.issues.flatMap((i) =>
    (i.code === 'unrecognized_keys' ? i.keys.map((k) => [...i.path, k]) : [i.path]).map((path) => ({
      location: path.join('.'),
      message: i.message,
      value: path.reduce<unknown>((v, k) => (v as Record<PropertyKey, unknown> | undefined)?.[k], input),
    })),
  );

class Refused extends Error {
  constructor(
    readonly code: RestRefusal,
    detail: string,
    readonly errors: FieldError[],
    readonly headers: Record<string, string>,
  ) {
    super(detail);
  }
}
const STATUS: Record<RestRefusal, number> = { not_found: 404, method_not_allowed: 405, malformed_request: 400, validation_failed: 422 };

const owners = new Map<string, object>([['7', {}], ['8', {}]]);

/** Registers the app's beforeAll/afterAll: the dispatcher under /v1 beside a route of the scope's own. */
export function dispatchSuite() {
  const app = Fastify({ routerOptions: { ignoreTrailingSlash: true } });
  beforeAll(async () => {
    app.setErrorHandler((err: FastifyError | Refused, _req, reply) => {
      if (err instanceof Refused) return reply.code(STATUS[err.code]).headers(err.headers).type('application/problem+json').send({ code: err.code, detail: err.message, errors: err.errors });
      return reply.code(err.statusCode ?? 500).type('application/problem+json').send({ code: err.code ?? 'internal', detail: err.message, errors: [] });
    });
    app.addContentTypeParser('application/x-thing', { parseAs: 'string' }, (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))));
    const rest = restDispatcher({
      router,
      routes: restRoutes<Meta>(router),
      createContext: (req): Ctx => ({ caller: req.headers['x-caller'] as string | undefined }),
      refusal: (code, detail, { errors = [], headers = {} }) => new Refused(code, detail ?? `${errors.length} invalid`, errors, headers),
      zodErrors: issueErrors,
      conditional: {
        // what the app knows a list's answer depends on alone (here: a header names an object that stands for it)
        keepAnswerFor: (req, route) => (route.procedurePath === 'list' && req.headers['x-version'] ? owners.get(String(req.headers['x-version'])) : undefined),
        cacheControl: (req) => (req.headers['x-private'] ? 'private, no-store' : 'public, max-age=5'),
      },
      onMatch: (req, reply, route) => {
        reply.header('X-Route', route.procedurePath);
        if (req.headers['x-refuse']) return reply.code(401).send({ code: 'refused' });
      },
      sendError: (_req, reply, { error, shape, route, input }) => {
        const zod = error.cause instanceof z.ZodError ? error.cause : undefined;
        const errors = (zod ? issueErrors(zod, input) : []).map((e) => ({ location: httpLocation(route as RestRoute, e.location), message: e.message }));
        const status = { BAD_REQUEST: 422, UNSUPPORTED_MEDIA_TYPE: 415 }[error.code as string] ?? 500;
        return reply.code(status).type('application/problem+json').send({ code: error.code, errors, shape });
      },
    });
    await app.register(
      async (scope) => {
        rest.addHooks(scope);
        scope.get('/own-route', async () => ({ own: true }));
        rest.addRoute(scope);
      },
      { prefix: '/v1' },
    );
  });
  afterAll(() => app.close());

  const inject = (method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'HEAD' | 'PATCH', url: string, body?: unknown) =>
    app.inject({ method, url, ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': 'application/json' } }) });
  const lastCall = () => calls.at(-1)!;
  return { app, inject, lastCall };
}
