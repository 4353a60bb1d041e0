import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { TRPCError, type AnyTRPCRouter } from '@trpc/server';
import { inputErrors, type ZodFieldErrors } from './input.js';
import { operationOf, type Operation } from './operation.js';
import { routeTable, type RestMeta, type RestRoute } from './routes.js';
import { keepBodiesStrict } from './strict-bodies.js';
import { JSON_MEDIA_TYPE, type FieldError } from './text.js';
import { callProcedure, errorOf, errorShape, proceduresOf } from './trpc-internals.js';
import { bodyTag, noneMatchHits } from './conditional.js';
import { keptAnswers, type Answer } from './kept-answers.js';

/** The answers the dispatcher itself gives; the app turns each into its own error (and so its problem). */
export type RestRefusal = 'not_found' | 'method_not_allowed' | 'malformed_request' | 'validation_failed';

export interface RestOptions<M extends RestMeta, Ctx> {
  router: AnyTRPCRouter;
  /** the router's /v1 routes (`restRoutes(router)`) */
  routes: RestRoute<M>[];
  /** The procedure's context for a request (called once its input is known). */
  createContext(req: FastifyRequest): Ctx;
  /**
   * The error for an answer the dispatcher gives before any procedure runs; it is thrown from the
   * hook, so the app's Fastify error handler shapes and sends it like any other problem. A
   * `validation_failed` comes without a detail: its `errors` say it, in the app's words.
   */
  refusal(code: RestRefusal, detail: string | undefined, extra: { errors?: FieldError[]; headers?: Record<string, string> }): Error;
  /** Zod issues as field errors at plain paths within the input, in the app's wording. */
  zodErrors: ZodFieldErrors;
  /**
   * Once a request matched a route, before its body is read: response headers from the route's
   * meta, refusals known from the headers (auth). Returning the reply, sent, stops the request there.
   */
  onMatch?(req: FastifyRequest, reply: FastifyReply, route: RestRoute<M>): Promise<unknown> | unknown;
  /**
   * Conditional GETs (conditional.ts): every 200 answer to a GET carries a strong `ETag` (the hash of
   * its body) and an `If-None-Match` naming it is a 304 without a body. `keepAnswerFor`: the object a
   * route's answer is a function of, with the URL (e.g. the marketplace the request's key resolved
   * to, held in memory, or the app's current version of that marketplace's public data): the first
   * answer's body and tag are kept for that object and URL (its path, and its query pairs in a
   * canonical order: `canonicalUrl`), and later requests with the same object are answered from them
   * (200 or 304) as soon as the route matched — no input checks, no procedure; they go when the
   * object goes (the app hands out a new one when what the answers came from changed). The object
   * is taken before the procedure runs, so an answer read before a change is kept with the object
   * the change retired. Kept answers per object: at most KEPT_BYTES_PER_OWNER of bodies, the oldest
   * dropped first (kept-answers.ts). `keysOf`: once such an answer is computed (`data`, the
   * procedure's result), the keys it is kept under — what it shows, for `forget(owner, key)` to drop
   * it alone later — or `false`: not kept after all (what it shows changed while it was computed).
   * `cacheControl`: the `Cache-Control` of a successful GET (and its 304), when the app wants one.
   */
  conditional?: {
    keepAnswerFor?(req: FastifyRequest, route: RestRoute<M>): object | undefined;
    keysOf?(req: FastifyRequest, route: RestRoute<M>, data: unknown): readonly string[] | false;
    cacheControl?(req: FastifyRequest, route: RestRoute<M>): string | undefined;
  };
  /** Sends the answer for an error of a procedure call, given the router's error shape for it. */
  sendError(req: FastifyRequest, reply: FastifyReply, failure: { error: TRPCError; shape: unknown; route: RestRoute<M>; input: unknown }): FastifyReply;
}

/** The operation and path parameters each request was matched to in onRequest. */
interface Matched {
  op: Operation;
  params: Record<string, string>;
  /** a GET whose answer may be kept: with what, under which URL */
  keep?: { owner: object; url: string };
}

/**
 * /v1 in a Fastify scope (its prefix is the API's base path): each request goes to the procedure
 * its OpenAPI meta names, called the way trpc-to-openapi 3.3's node-http handler called it (its
 * core.mjs, step for step): the input from the JSON body, or from the query (operation.ts
 * `queryInput`), then the path parameters, percent-decoded once; query coercion on for the schema;
 * the procedure called with the request's context; success as JSON with the route's
 * `successStatus`; errors through the router's error shape. What that handler also did per request
 * and nothing used is left out: parsing the URL and matching every route again, a WHATWG Request
 * with an AbortController for a signal no procedure was given, a router caller proxy, walking the
 * input schema to coerce it again, and an error body parsed back by a hook.
 *
 * Hooks, in order: onRequest matches the route (404, 405 with `Allow`, HEAD as GET) and runs
 * `onMatch`; preValidation checks the parsed input (input.ts: every invalid field listed); the
 * handler calls the procedure; onSend drops the JSON content type of an empty 202/204. The JSON body
 * parser is the app's (it runs between onRequest and preValidation).
 */
export function restDispatcher<M extends RestMeta, Ctx>(opts: RestOptions<M, Ctx>): RestDispatcher {
  const { router } = opts;
  keepBodiesStrict(opts.routes as RestRoute[]);
  const table = routeTable(opts.routes);
  const procedures = proceduresOf(router);
  const operations = new Map<RestRoute<M>, Operation>(opts.routes.map((route) => [route, operationOf(route as RestRoute, procedures[route.procedurePath]!._def.type as 'query' | 'mutation')]));
  const matched = new WeakMap<FastifyRequest, Matched>();

  function addHooks(scope: FastifyInstance) {
    const prefix = scope.prefix;
    const wildcard = `${prefix}/*`;
    // Callback hooks, not async ones: each async hook costs every request a promise and a turn of the
    // event loop; these finish at once unless something (a session lookup, a schema) must be awaited.
    scope.addHook('onRequest', (req, reply, done) => {
      if (req.routeOptions.url !== wildcard) return done(); // the scope's own routes (documents, raw uploads)
      // WHATWG URL: dot segments resolved (`/v1/a/../listings` is `/v1/listings`), as trpc-to-openapi read it
      const pathname = new URL(req.url, 'http://x').pathname;
      const path = (pathname.startsWith(prefix) ? pathname.slice(prefix.length) : pathname) || '/';
      const m = table.match(req.method, path);
      if (m.malformed !== undefined) {
        throw opts.refusal('malformed_request', `The path parameter ${m.malformed} is not valid percent-encoded UTF-8.`, { errors: [{ location: `path.${m.malformed}`, message: 'Must be valid percent-encoded UTF-8.', value: null }] });
      }
      if (!m.route) {
        const where = req.url.split('?')[0];
        if (m.allowed.length) throw opts.refusal('method_not_allowed', `${req.method} is not allowed on ${where}; use ${m.allowed.join(' or ')}.`, { headers: { Allow: m.allowed.join(', ') } });
        throw opts.refusal('not_found', `No endpoint ${req.method} ${where}. See ${prefix}/openapi.json.`, {});
      }
      const answered = opts.onMatch?.(req, reply, m.route);
      if (!(answered instanceof Promise)) return afterMatch(req, reply, done, m.route, m.params, pathname, answered);
      answered.then((a) => {
        try {
          afterMatch(req, reply, done, m.route!, m.params, pathname, a);
        } catch (e) {
          done(e as Error);
        }
      }, done);
    });

    // The body is parsed: what every operation's input must be, all invalid fields listed (input.ts).
    // Then: bodiless POST/DELETE calls (e.g. "end this session") need no Content-Type; a JSON body
    // parsed under any spelling of a JSON media type is handed on as plain `application/json`, the
    // one the operations take. One hook: each costs every request.
    scope.addHook('preValidation', (req, _reply, done) => {
      const m = matched.get(req);
      const errors = m ? inputErrors(m.op, m.params, req.query as Record<string, unknown>, req.body, opts.zodErrors) : [];
      if (errors instanceof Promise) errors.then((e) => inputChecked(req, done, e), done);
      else inputChecked(req, done, errors);
    });

    // 202/204 without a body: no Content-Type claiming JSON
    scope.addHook('onSend', (_req, reply, payload, done) => {
      if ((reply.statusCode === 202 || reply.statusCode === 204) && (payload === undefined || payload === '' || payload === null)) reply.removeHeader('content-type');
      done(null, payload);
    });
  }

  // The hooks' continuations, made once rather than per request (a function made per request is an
  // allocation, and under tsx a `__name` call too).
  function afterMatch(req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction, route: RestRoute<M>, params: Record<string, string>, pathname: string, answered: unknown) {
    if (answered === reply) return; // answered (a refusal): the hooks stop here
    const owner = req.method === 'GET' ? opts.conditional?.keepAnswerFor?.(req, route) : undefined;
    const keep = owner && { owner, url: canonicalUrl(pathname, req.url) };
    const kept = keep && answers.get(owner, keep.url);
    if (kept) return void sendTagged(req, reply, route, kept); // known: no input checks, no procedure
    matched.set(req, { op: operations.get(route)!, params, ...(keep ? { keep } : {}) });
    done();
  }

  function inputChecked(req: FastifyRequest, done: HookHandlerDoneFunction, errors: FieldError[]) {
    if (errors.length) return done(opts.refusal('validation_failed', undefined, { errors }));
    const type = req.headers['content-type'];
    if (type === undefined ? req.body === undefined || req.body === null : JSON_MEDIA_TYPE.test(type)) req.headers['content-type'] = 'application/json';
    done();
  }

  function addRoute(scope: FastifyInstance) {
    scope.route({
      method: ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'],
      url: '/*',
      handler: async (req, reply) => {
        const m = matched.get(req);
        // HEAD on a GET operation: the adapter's answer (no procedure runs); unmatched paths never get here (onRequest)
        if (!m || req.method === 'HEAD') return reply.code(204).header('Content-Type', 'application/json').send();
        const { op } = m;
        const route = op.route as RestRoute<M>;
        let input: unknown;
        let ctx: Ctx | undefined;
        try {
          const contentType = req.headers['content-type'];
          if (op.useBody && !contentType?.startsWith('application/json')) {
            throw new TRPCError({ code: 'UNSUPPORTED_MEDIA_TYPE', message: contentType ? `Unsupported content-type "${contentType}` : 'Missing content-type header' });
          }
          input = op.inputOf(op.useBody ? req.body : req.query, m.params);
          op.coerce();
          ctx = opts.createContext(req);
          const data = await callProcedure(router, route.procedurePath, op.type, input, ctx);
          const status = successStatus(route.meta);
          const body = JSON.stringify(data);
          if (req.method === 'GET' && status === 200 && typeof body === 'string') {
            const answer = { body, tag: bodyTag(body) };
            const keys = m.keep && (opts.conditional?.keysOf?.(req, route, data) ?? []);
            if (m.keep && keys) answers.keep(m.keep.owner, m.keep.url, answer, keys);
            return sendTagged(req, reply, route, answer);
          }
          return reply.code(status).header('Content-Type', 'application/json').send(body);
        } catch (cause) {
          const error = errorOf(cause);
          const shape = errorShape(router, error, route.procedurePath, op.type, input, ctx);
          return opts.sendError(req, reply, { error, shape, route, input });
        }
      },
    });
  }

  /** A 200 to a GET, or its 304: both with the tag and the caching policy. */
  function sendTagged(req: FastifyRequest, reply: FastifyReply, route: RestRoute<M>, answer: Answer) {
    reply.header('ETag', answer.tag);
    const cacheControl = opts.conditional?.cacheControl?.(req, route);
    if (cacheControl !== undefined) reply.header('Cache-Control', cacheControl);
    if (noneMatchHits(req.headers['if-none-match'], answer.tag)) return reply.code(304).send();
    return reply.code(200).header('Content-Type', 'application/json').send(answer.body);
  }

  const answers = keptAnswers();

  return { addHooks, addRoute, forget: answers.forget };
}

export interface RestDispatcher {
  /** onRequest, preValidation and onSend hooks of the scope (add them before hooks that should see a matched request, e.g. idempotency) */
  addHooks(scope: FastifyInstance): void;
  /** the scope's `/*` route that calls the procedures */
  addRoute(scope: FastifyInstance): void;
  /** drops the answers kept with `owner` under `key` (`keysOf`) */
  forget(owner: object, key: string): void;
}

const successStatus = (meta: RestMeta) => meta.successStatus ?? 200;

/**
 * The key a GET's answer is kept under: the matched path (dot segments resolved) and the query's
 * `name=value` pairs as sent, ordered by their decoded name (a stable sort, so repeated names keep
 * their order: `term=a&term=b` is not `term=b&term=a`). `?limit=24&q=sofa` and `?q=sofa&limit=24`
 * are one answer; spellings that decode alike (`q=%73ofa`) are kept apart, which only costs a read.
 */
export function canonicalUrl(pathname: string, url: string): string {
  const at = url.indexOf('?');
  if (at < 0 || at === url.length - 1) return pathname;
  const pairs = url.slice(at + 1).split('&');
  if (pairs.length === 1) return `${pathname}?${pairs[0]}`;
  const named = pairs.map((pair) => ({ pair, name: decodedName(pair) }));
  named.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return `${pathname}?${named.map((n) => n.pair).join('&')}`;
}

function decodedName(pair: string): string {
  const eq = pair.indexOf('=');
  const raw = (eq < 0 ? pair : pair.slice(0, eq)).replaceAll('+', ' ');
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}
