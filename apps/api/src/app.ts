import { isUtf8 } from 'node:buffer';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { MikroORM } from '@hm/db/orm';
import { appRouter } from '@hm/contract/router';
import type { ApiMode, Ports } from '@hm/domain/core';
import type { Meta } from '@hm/contract/trpc';
import { DomainError, HttpError, problemHeaders } from '@hm/contract/problems';
import { registerUploads } from './http/uploads.js';
import { registerStripeWebhook } from './http/stripe-webhook.js';
import { RETRY_AFTER_SECONDS, unavailableError } from '@hm/domain/core';
import { apiKeyAuthenticator, type KeyChanges } from './http/api-key-cache.js';
import { addApiKeyResolution } from './http/auth.js';
import { listenForKeyChanges } from './http/key-change-listener.js';
import { keptCountsOf, readCache, recordArrival, type ReadCache } from './http/read-cache.js';
import { bodyTag, JSON_MEDIA_TYPE, noneMatchHits, restRoutes, type RestDispatcher } from '@hm/rest';
import { parseClientJson } from './http/client-input.js';
import { contextFactory } from './http/context.js';
import { registerDocs } from './http/docs.js';
import { clientAborted, clientErrorHandler, fastifyErrorToProblem, frameworkErrors, sendFor } from './http/framework-errors.js';
import { addIdempotency } from './http/idempotency.js';
import { problem, sendProblem } from './http/problem.js';
import { restForApi } from './http/rest.js';
import { addResponseHeaders, newRequestId } from './http/security-headers.js';
import { registerTrpc } from './http/trpc.js';
import { buildOpenApiDocument } from './openapi.js';
import { backOfficeRouter } from '@hm/contract/back-office';
import { registerConsole } from './http/console.js';

export interface AppDeps {
  orm: MikroORM;
  mode: ApiMode;
  /** built once at the composition root (runtime.ts `createPorts`), shared with the worker */
  ports: Ports;
  /** public URL of this API, for the OpenAPI document's server and image URLs */
  apiUrl: string;
  /** STRIPE_WEBHOOK_SECRET when Stripe is the payments provider: `POST /webhooks/stripe` answers 404 without it */
  stripeWebhookSecret?: string;
  /** STRIPE_CONNECT_WEBHOOK_SECRET: `POST /webhooks/stripe/connect` (connected accounts' events) answers 404 without it */
  stripeConnectWebhookSecret?: string;
  bodyLimit?: number;
  /** a request (head and body) must arrive within this, else 408 and the connection closes */
  requestTimeoutMs?: number;
  logger?: FastifyServerOptions['logger'];
  /**
   * How long (ms, at most 1000) an accepted API key and its marketplace are reused without asking the
   * database (API_KEY_CACHE_MS); a revocation or marketplace change shows within this. 0 (default): never.
   */
  apiKeyCacheMs?: number;
  /**
   * With a key cache: the database to LISTEN on for changes to marketplaces and keys (a connection
   * of its own, not through a transaction pooler), so each is seen by this process as soon as it
   * commits rather than within API_KEY_CACHE_MS.
   */
  keyChangesUrl?: string;
  /**
   * Postgres reached directly, never through a transaction pooler, for what needs a session of its
   * own: the idempotency records' process lease (a session advisory lock). Default: the ORM's URL.
   */
  directUrl?: string;
  /**
   * With `keyChangesUrl`: keep public reads' answers per process until a change to what they read
   * commits (http/read-cache.ts; API_READ_CACHE). Default true; false answers every read from the database.
   */
  readCache?: boolean;
  /** where the back-office app is served (its origin may make cookie-authenticated changes; invitation links lead there) */
  backOfficeUrl?: string;
}

export const API_VERSION = '1.0.0';
/** Long enough for 20 MiB at under 3 Mbit/s; a caller that stalls mid-body holds nothing for longer. */
export const REQUEST_TIMEOUT_MS = 60_000;

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { clock } = deps.ports;
  const requestTimeoutMs = deps.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  const app = Fastify({
    logger: deps.logger ?? false,
    genReqId: newRequestId,
    bodyLimit: deps.bodyLimit ?? 1_048_576,
    return503OnClosing: true,
    requestTimeout: requestTimeoutMs,
    // Node takes its timeouts when the server is made (setting them later is not enough), and looks for
    // timed-out requests on an interval (default 30 s): keep the 408 close to the timeout.
    http: { requestTimeout: requestTimeoutMs, headersTimeout: Math.min(60_000, requestTimeoutMs), connectionsCheckingInterval: Math.min(1000, requestTimeoutMs) },
    clientErrorHandler: clientErrorHandler(requestTimeoutMs),
    frameworkErrors,
    routerOptions: { ignoreTrailingSlash: true },
  });

  // JSON bodies: an empty body is "no input" (bodiless POST/DELETE); anything else must parse, at a
  // bounded depth and without NUL characters or lone surrogates (see client-input.ts). The /v1
  // operations check the text with the rest of their input, to list every invalid field (@hm/rest).
  app.removeContentTypeParser('application/json');
  // Media types are case-insensitive and may carry parameters (RFC 9110): `Application/JSON; charset=utf-8` is JSON.
  // JSON is UTF-8 (RFC 8259): other bytes are refused rather than stored as replacement characters.
  app.addContentTypeParser(JSON_MEDIA_TYPE, { parseAs: 'buffer' }, (req, body, done) => {
    const bytes = body as Buffer;
    if (bytes.length === 0) return done(null, undefined);
    try {
      const charset = declaredCharset(req.headers['content-type']);
      if (charset !== undefined && !/^utf-?8$/i.test(charset)) {
        throw new HttpError('unsupported_media_type', `The body is declared as charset=${charset}; JSON is UTF-8 (RFC 8259): send UTF-8 with charset=utf-8 or no charset.`);
      }
      if (!isUtf8(bytes)) throw new DomainError('malformed_request', 'The body is not valid UTF-8 text.');
      done(null, parseClientJson(bytes.toString('utf8'), 'The body', 'body', req.routeOptions.url !== '/v1/*' && req.routeOptions.url !== '/console/v1/*'));
    } catch (e) {
      done(e as Error, undefined);
    }
  });
  app.removeContentTypeParser('text/plain');

  addResponseHeaders(app);

  // No request body of the API may be compressed (RFC 9110 §8.4: 415 for a content coding the server does not
  // take): a gzip body would otherwise be read as if it were plain, or an empty one taken as no input.
  // A callback hook: every request passes here (an async hook costs a promise and a turn each). A
  // request that says a body follows goes on after a turn, as when the hooks were async: Node first
  // finishes reading what it was given, so a framing it cannot read is its own 400 whatever the
  // route would have answered (request-framing.e2e.test.ts); a read goes on at once.
  app.addHook('onRequest', (req, reply, done) => {
    const coding = req.headers['content-encoding'];
    if (coding === undefined || /^\s*identity\s*$/i.test(coding) || req.method === 'GET' || req.method === 'HEAD' || !/^\/(console\/)?v1\//.test(req.url)) {
      return req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0' ? queueMicrotask(() => done()) : done();
    }
    reply.header('Connection', 'close');
    sendProblem(reply, problem('unsupported_media_type', `Content-Encoding "${coding.slice(0, 40)}" is not accepted: send the request body uncompressed.`));
  });

  app.setErrorHandler((err: FastifyError, req, reply) => {
    // The client went away while sending its body (a phone losing signal mid-upload): its business,
    // not an outage; ECONNRESET would otherwise read as the database's. No one is left to answer.
    if (clientAborted(err, req.raw)) {
      req.log.info({ code: err.code, contentLength: req.headers['content-length'] }, 'client aborted the upload: the connection closed before the whole body arrived');
      return reply.code(400).send();
    }
    // The database down or restarting (key lookup, idempotency records): 503 + Retry-After, not 500.
    const unavailable = unavailableError(err);
    if (unavailable) req.log.warn({ err }, 'database unavailable');
    const known = unavailable ?? err;
    const p = fastifyErrorToProblem(known);
    if (p.status >= 500 && !unavailable) req.log.error({ err }, 'unhandled error');
    return sendFor(req.url, reply, p, problemHeaders(known));
  });
  app.setNotFoundHandler((req, reply) => sendFor(req.url, reply, problem('not_found', `No endpoint ${req.method} ${req.url.split('?')[0]}. See /v1/openapi.json.`)));

  app.get('/health', async () => ({ status: 'ok' }));
  app.get('/ready', async (req, reply) => {
    const check = await deps.orm.checkConnection();
    if (check.ok) return { status: 'ready', database: 'ok' };
    req.log.warn({ err: check.error, reason: check.reason }, 'database not reachable');
    // like every other 503: when to ask again
    return sendProblem(reply, problem('service_unavailable', 'The database is not reachable.'), { 'Retry-After': String(RETRY_AFTER_SECONDS) });
  });

  const openapi = buildOpenApiDocument(appRouter, { serverUrl: deps.apiUrl, version: API_VERSION });
  const openapiJson = JSON.stringify(openapi);
  const openapiTag = bodyTag(openapiJson);
  registerDocs(app);

  // the API key cache, the operator sessions' (console.ts) and the public reads' hear of changes from one listener
  const keyChangeHandlers: ((marketplaceId: string | undefined, what?: 'key' | 'reads') => void)[] = [];
  const keyChanges: KeyChanges = (handler) => void keyChangeHandlers.push(handler);
  const authenticate = apiKeyAuthenticator(deps.orm, deps.mode, deps.apiKeyCacheMs ?? 0, undefined, keyChanges);
  let reads: ReadCache | undefined;
  let rest: RestDispatcher | undefined;
  if (deps.keyChangesUrl && (deps.apiKeyCacheMs ?? 0) > 0) {
    // one listener for every cache: a change to a marketplace's keys or settings drops its public answers too
    const listener = listenForKeyChanges(
      deps.keyChangesUrl,
      (id, what, listingId) => {
        for (const handler of keyChangeHandlers) handler(id, what);
        reads?.changed(id, listingId);
      },
      (msg, err) => app.log.warn({ err }, msg),
    );
    // a change to one listing alone drops only the answers kept under it (rest.forget)
    if (deps.readCache !== false) reads = readCache(listener.listening, (owner, key) => rest?.forget(owner, key));
    await listener.ready;
    app.addHook('onClose', () => listener.close());
  }
  const createContext = contextFactory({
    orm: deps.orm,
    mode: deps.mode,
    ports: deps.ports,
    publicUrl: deps.apiUrl,
    ...(deps.backOfficeUrl ? { backOfficeUrl: deps.backOfficeUrl } : {}),
    ...(reads ? { keptCounts: keptCountsOf(reads) } : {}),
  });
  const api = (rest = restForApi(appRouter, restRoutes<Meta>(appRouter), deps.orm, clock, createContext, reads));
  await app.register(
    async (scope) => {
      if (reads) recordArrival(scope, reads);
      addApiKeyResolution(scope, authenticate);
      // Order matters: the problem rewrite's onSend runs before idempotency's, which stores the result.
      api.addHooks(scope);
      addIdempotency(scope, deps.orm, clock, undefined, deps.directUrl);
      scope.get('/openapi.json', async (req, reply) => {
        reply.header('Cache-Control', 'no-cache').header('ETag', openapiTag);
        return noneMatchHits(req.headers['if-none-match'], openapiTag) ? reply.code(304).send() : reply.type('application/json').send(openapiJson);
      });
      await scope.register(async (uploads) => registerUploads(uploads, { createContext, images: deps.ports.images, orm: deps.orm, clock }));
      api.addRoute(scope);
    },
    { prefix: '/v1' },
  );
  await app.register(async (scope) => {
    addApiKeyResolution(scope, authenticate);
    addIdempotency(scope, deps.orm, clock, undefined, deps.directUrl);
    await registerTrpc(scope, appRouter, createContext);
  });
  const consoleOpenapi = JSON.stringify(buildOpenApiDocument(backOfficeRouter, { serverUrl: deps.apiUrl, version: API_VERSION, surface: 'console' }));
  await registerConsole(app, { orm: deps.orm, mode: deps.mode, clock, createContext, sessionCacheMs: deps.apiKeyCacheMs ?? 0, keyChanges, ...(deps.directUrl ? { directUrl: deps.directUrl } : {}), origins: deps.backOfficeUrl ? [new URL(deps.backOfficeUrl).origin] : [], openapiJson: consoleOpenapi });
  await app.register(async (scope) => registerStripeWebhook(scope, { orm: deps.orm, clock, webhookSecret: deps.stripeWebhookSecret, connectWebhookSecret: deps.stripeConnectWebhookSecret }));

  return app;
}

/** The `charset` parameter of a Content-Type header (quoted or not), undefined when there is none. */
function declaredCharset(contentType: string | undefined): string | undefined {
  return /;\s*charset\s*=\s*"?([^";\s]*)"?/i.exec(contentType ?? '')?.[1];
}
