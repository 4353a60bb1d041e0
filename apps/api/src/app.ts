import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { MikroORM } from '@hm/db/orm';
import { appRouter } from '@hm/domain/router';
import type { ApiMode, Clock } from '@hm/domain/context';
import { systemClock } from '@hm/domain/context';
import type { ImageStore } from '@hm/domain/images';
import { registerUploads } from './http/uploads.js';
import type { Problem, ProblemCode } from '@hm/domain/errors';
import { unavailableError } from '@hm/domain/unavailable';
import { addApiKeyResolution } from './http/auth.js';
import { contextFactory } from './http/context.js';
import { registerDocs } from './http/docs.js';
import { addIdempotency } from './http/idempotency.js';
import { problem, sendProblem } from './http/problem.js';
import { registerRest } from './http/rest.js';
import { registerTrpc } from './http/trpc.js';
import { buildOpenApiDocument } from './openapi.js';

export interface AppDeps {
  orm: MikroORM;
  mode: ApiMode;
  clock?: Clock;
  /** public URL of this API, for the OpenAPI document's server and image URLs */
  apiUrl: string;
  /** where listing photos are kept */
  images: ImageStore;
  bodyLimit?: number;
  logger?: FastifyServerOptions['logger'];
}

export const API_VERSION = '1.0.0';

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const clock = deps.clock ?? systemClock;
  const app = Fastify({
    logger: deps.logger ?? false,
    genReqId: () => `req_${randomUUID().replaceAll('-', '')}`,
    bodyLimit: deps.bodyLimit ?? 1_048_576,
    return503OnClosing: true,
    routerOptions: { ignoreTrailingSlash: true },
  });

  // JSON bodies: an empty body is "no input" (bodiless POST/DELETE); anything else must parse.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(/^application\/(.+\+)?json$/, { parseAs: 'string' }, (_req, body, done) => {
    if (body === '') return done(null, undefined);
    try {
      done(null, JSON.parse(body as string));
    } catch (e) {
      done(Object.assign(new Error(`The body is not valid JSON: ${(e as Error).message}`), { statusCode: 400, code: 'HM_BAD_JSON' }), undefined);
    }
  });
  app.removeContentTypeParser('text/plain');

  app.addHook('onRequest', async (req, reply) => {
    reply.header('Request-Id', req.id);
  });

  app.setErrorHandler((err: FastifyError, req, reply) => {
    // The database down or restarting (key lookup, idempotency records): 503 + Retry-After, not 500.
    const unavailable = unavailableError(err);
    if (unavailable) {
      req.log.warn({ err }, 'database unavailable');
      return sendFor(req.url, reply.headers(unavailable.headers), problem(unavailable.code, unavailable.message));
    }
    const p = fastifyErrorToProblem(err);
    if (p.status >= 500) req.log.error({ err }, 'unhandled error');
    return sendFor(req.url, reply, p);
  });
  app.setNotFoundHandler((req, reply) => sendFor(req.url, reply, problem('not_found', `No endpoint ${req.method} ${req.url.split('?')[0]}. See /v1/openapi.json.`)));

  app.get('/health', async () => ({ status: 'ok' }));
  app.get('/ready', async (req, reply) => {
    try {
      await deps.orm.em.getConnection().execute('select 1');
      return { status: 'ready', database: 'ok' };
    } catch (err) {
      req.log.warn({ err }, 'database not reachable');
      return sendProblem(reply, problem('service_unavailable', 'The database is not reachable.'));
    }
  });

  const openapi = buildOpenApiDocument(appRouter, { serverUrl: deps.apiUrl, version: API_VERSION });
  const openapiJson = JSON.stringify(openapi);
  registerDocs(app);

  const createContext = contextFactory({ orm: deps.orm, mode: deps.mode, clock, publicUrl: deps.apiUrl, images: deps.images });

  await app.register(
    async (scope) => {
      addApiKeyResolution(scope, deps.orm, deps.mode);
      addIdempotency(scope, deps.orm, clock);
      scope.get('/openapi.json', async (_req, reply) => reply.type('application/json').header('Cache-Control', 'no-cache').send(openapiJson));
      await scope.register(async (uploads) => registerUploads(uploads, createContext, deps.images));
      await registerRest(scope, appRouter, createContext);
    },
    { prefix: '/v1' },
  );
  await app.register(async (scope) => {
    addApiKeyResolution(scope, deps.orm, deps.mode);
    addIdempotency(scope, deps.orm, clock);
    await registerTrpc(scope, appRouter, createContext);
  });

  return app;
}

const FASTIFY_CODES: Record<string, ProblemCode> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'malformed_request',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'malformed_request',
  FST_ERR_CTP_INVALID_JSON_BODY: 'malformed_request',
  HM_BAD_JSON: 'malformed_request',
};

function fastifyErrorToProblem(err: FastifyError): Problem {
  const code = err.code ? FASTIFY_CODES[err.code] : undefined;
  if (code === 'unsupported_media_type') return problem(code, 'Send the request body as application/json.');
  if (code === 'payload_too_large') return problem(code, 'The request body is larger than this endpoint accepts.');
  if (code) return problem(code, err.message);
  if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) return problem('malformed_request', err.message);
  return problem('internal_error', 'Something went wrong on our side. Retry later; if it persists, contact support with the Request-Id.');
}

/** /trpc clients read errors inside the tRPC envelope; everything else gets the bare problem. */
function sendFor(url: string, reply: Parameters<typeof sendProblem>[0], p: Problem) {
  if (url.startsWith('/trpc')) {
    return reply
      .code(p.status)
      .type('application/json')
      .send(JSON.stringify({ error: { message: p.detail, code: -32600, data: { code: p.code, httpStatus: p.status, problem: p } } }));
  }
  return sendProblem(reply, p);
}
