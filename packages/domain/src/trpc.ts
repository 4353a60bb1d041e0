import { initTRPC, TRPCError } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { ZodError } from 'zod';
import { tenantEm } from '@hm/db/orm';
import type { Context, KeyContext, UserContext } from './context.js';
import { authenticateSession } from './accounts/commands/sessions.js';
import { DomainError, problemOf, type FieldError, type Problem } from './errors.js';
import { withMarketplace } from './shared/request-scope.js';
import { unavailableError } from './shared/unavailable.js';

/**
 * Who may call a procedure:
 * - `key`: any API key of the deployment's mode (public data: publishable keys allowed)
 * - `secret`: a secret key only
 * - `session`: a secret key and a signed-in user's `X-User-Session` (the `/v1/me…` endpoints)
 * - `none`: no key (image downloads and the like)
 */
export type AuthLevel = 'key' | 'secret' | 'session' | 'none';

export type Meta = OpenApiMeta<{
  auth: AuthLevel;
  /** success status on /v1 when not 200 (201 created, 202 accepted, 204 no content) */
  successStatus?: 200 | 201 | 202 | 204;
  /** problem statuses beyond the ones every operation of its kind can answer (documented in OpenAPI) */
  problems?: (403 | 409 | 429)[];
  /** a public read that also accepts `X-User-Session` (with a secret key) to personalise the answer */
  optionalSession?: boolean;
}>;

type MetaLookup = (path: string) => Meta | undefined;
let metaLookup: MetaLookup = () => undefined;
/** The router registers how to find a procedure's meta, so errors can say where a bad field was sent. */
export function setMetaLookup(lookup: MetaLookup) {
  metaLookup = lookup;
}

const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    errorFormatter({ shape, error, path, input }) {
      const problem = toProblem(error, path ? metaLookup(path) : undefined, input);
      return {
        message: problem.detail,
        code: shape.code,
        data: { code: shape.data.code, httpStatus: problem.status, path: shape.data.path, problem },
      };
    },
  });

export const router = t.router;
export const middleware = t.middleware;
export const createCallerFactory = t.createCallerFactory;

const authenticate = t.middleware(async ({ ctx, meta, next }) => {
  const level = meta?.auth ?? 'secret';
  if (level === 'none') return next();
  if (ctx.auth === undefined) throw new DomainError('api_key_required', 'Send your API key as "Authorization: Bearer <key>".');
  if (ctx.auth instanceof DomainError) throw ctx.auth;
  if ((level === 'secret' || level === 'session') && ctx.auth.kind === 'publishable') {
    throw new DomainError('publishable_key_not_allowed', 'Publishable keys may read public data only; use a secret key from your server.');
  }
  const { marketplace, apiKeyId, kind } = ctx.auth;
  const keyCtx: Omit<KeyContext, keyof Context> = {
    em: tenantEm(ctx.orm, marketplace.id),
    marketplace,
    apiKey: { id: apiKeyId, kind },
  };
  return withMarketplace(marketplace, () => next({ ctx: keyCtx }));
});

/**
 * Outermost on every procedure: losing the database (down, restarting) is a 503 with Retry-After,
 * as a DomainError so both transports send its headers; the client retries and we recover by ourselves.
 */
const base = t.procedure.use(async ({ next }) => {
  const result = await next();
  const unavailable = result.ok ? undefined : unavailableError(result.error.cause ?? result.error);
  if (unavailable) throw new TRPCError({ code: 'SERVICE_UNAVAILABLE', message: unavailable.message, cause: unavailable });
  return result;
});

/** Base for every public procedure: attach meta with `auth` and `openapi`. */
export const procedure = base.use(authenticate);

/** Procedures that need a known marketplace: narrows the context type. */
export const keyProcedure = procedure.use(({ ctx, next }) => next({ ctx: ctx as KeyContext }));

/** `/v1/me…`: a secret key and a live session of a user who is not blocked (401 / 403 otherwise). */
export const sessionProcedure = keyProcedure.use(async ({ ctx, next }) => {
  const { user, session } = await authenticateSession(ctx.em, ctx.sessionToken, ctx.clock.now());
  const userCtx: Pick<UserContext, 'user' | 'session'> = { user, session };
  return next({ ctx: userCtx });
});

/** Console procedures: called in-process by the operator CLI, never mounted on HTTP. */
export const consoleProcedure = base;

// ---------------------------------------------------------------------------------------------

const TRPC_TO_PROBLEM: Partial<Record<TRPCError['code'], Problem['code']>> = {
  PARSE_ERROR: 'malformed_request',
  BAD_REQUEST: 'malformed_request',
  UNAUTHORIZED: 'invalid_api_key',
  FORBIDDEN: 'forbidden',
  NOT_FOUND: 'not_found',
  METHOD_NOT_SUPPORTED: 'method_not_allowed',
  CONFLICT: 'conflict',
  PAYLOAD_TOO_LARGE: 'payload_too_large',
  UNSUPPORTED_MEDIA_TYPE: 'unsupported_media_type',
  UNPROCESSABLE_CONTENT: 'validation_failed',
  TOO_MANY_REQUESTS: 'rate_limited',
  SERVICE_UNAVAILABLE: 'service_unavailable',
};

export function toProblem(error: TRPCError | Error, meta: Meta | undefined, input: unknown): Problem {
  const cause = error instanceof TRPCError ? error.cause : error;
  if (cause instanceof DomainError) return problemOf(cause.code, cause.message, cause.errors);
  const unavailable = unavailableError(cause ?? error);
  if (unavailable) return problemOf(unavailable.code, unavailable.message);
  if (cause instanceof ZodError) {
    const errors = zodIssuesToFieldErrors(cause, meta, input);
    return problemOf('validation_failed', describe(errors), errors);
  }
  if (error instanceof TRPCError) {
    const code = TRPC_TO_PROBLEM[error.code];
    if (code) return problemOf(code, error.message);
  }
  return problemOf('internal_error', 'Something went wrong on our side. Retry later; if it persists, contact support with the request id.');
}

function describe(errors: FieldError[]): string {
  if (errors.length === 1) return `${errors[0]!.location}: ${errors[0]!.message}`;
  return `The request has ${errors.length} invalid fields; see errors.`;
}

/** Where a field was sent: a path parameter of the route, else the query (GET/DELETE) or the JSON body. */
export function fieldLocation(meta: Meta | undefined, field: string): 'path' | 'query' | 'body' {
  const openapi = meta?.openapi;
  if (!openapi) return 'body';
  if (openapi.path.includes(`{${field}}`)) return 'path';
  return openapi.method === 'GET' || openapi.method === 'DELETE' ? 'query' : 'body';
}

export function zodIssuesToFieldErrors(error: ZodError, meta: Meta | undefined, input: unknown): FieldError[] {
  return error.issues.flatMap((issue) => {
    // Unknown keys are reported once per key, each at its own location.
    const paths = issue.code === 'unrecognized_keys' ? issue.keys.map((k) => [...issue.path, k]) : [issue.path];
    return paths.map((p) => {
      const segments = p.map(String);
      const value = valueAt(input, segments);
      const shown = value === undefined || segments.some((seg) => SECRET_FIELDS.has(seg)) ? null : value;
      const first = segments[0];
      const location = first === undefined ? 'body' : `${fieldLocation(meta, first)}.${segments.join('.')}`;
      return { location, message: messageFor(issue, value), value: shown };
    });
  });
}

/** Secrets a client sends are never echoed back in a problem. */
const SECRET_FIELDS = new Set(['password', 'token']);

function messageFor(issue: ZodError['issues'][number], value: unknown): string {
  if (issue.code === 'invalid_type' && value === undefined) return 'Required.';
  if (issue.code === 'unrecognized_keys') return 'Unknown field.';
  const msg = issue.message.replace(/^Invalid input: /, '');
  return msg.endsWith('.') ? msg : `${msg}.`;
}

function valueAt(input: unknown, path: string[]): unknown {
  let cur: unknown = input;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}
