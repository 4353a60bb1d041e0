import { initTRPC, TRPCError } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { ZodError } from 'zod';
import { tenantEm } from '@hm/db/orm';
import type { AuthenticatedKey, Context, KeyContext, UserContext } from '@hm/domain/core';
import { authenticateSession } from '@hm/domain/accounts';
import { DomainError, HttpError, problemOf, type FieldError, type Problem } from './problems.js';
import { withMarketplace } from '@hm/domain/core';
import { unavailableError } from '@hm/domain/core';

/**
 * Who may call a procedure:
 * - `key`: any API key of the deployment's mode (public data: publishable keys allowed)
 * - `secret`: a secret key only
 * - `session`: a secret key and a signed-in user's `X-User-Session` (the `/v1/me…` endpoints)
 * - `none`: no key (image downloads and the like)
 * - `operator`: the back office (/console/…): a signed-in operator's session, never an API key
 */
export type AuthLevel = 'key' | 'secret' | 'session' | 'none' | 'operator';

export type Meta = OpenApiMeta<{
  auth: AuthLevel;
  /** success status on /v1 when not 200 (201 created, 202 accepted, 204 no content) */
  successStatus?: 200 | 201 | 202 | 204;
  /** problem statuses beyond the ones every operation of its kind can answer (documented in OpenAPI) */
  problems?: (403 | 409 | 429)[];
  /** a public read that also accepts `X-User-Session` (with a secret key) to personalise the answer */
  optionalSession?: boolean;
  /** response headers on /v1 whatever the outcome (e.g. a preview: never cached, never indexed) */
  headers?: Record<string, string>;
  /** an example request body for the OpenAPI document (openapi.test.ts checks it against the input schema) */
  requestExample?: Record<string, unknown>;
  /**
   * A read answered from the key's marketplace alone (held in memory with the key): no entity
   * manager, no transaction, nothing sent to the database, and its answer kept with that
   * marketplace object on /v1 (http/rest.ts). The procedure must not use `ctx.em`.
   */
  touchesNoTable?: boolean;
  /**
   * A public read answered from the marketplace's settings and its public data only (the tables
   * whose changes notify `hm_reads_changed`: …_read_cache_notify migration's PUBLIC_READ_TABLES and
   * users' display names), the input, the key kind and the day — never from the time of day, a
   * session or the caller. Without `X-User-Session`, its answer is kept per API process until such a
   * change commits (apps/api/src/http/read-cache.ts). A read of any other table must not say this.
   */
  publicRead?: boolean;
  /**
   * A public read that shows listings (`one`: the answer is a listing, by its `id`; `page`: its
   * `items` are; ordered by favourite count with `sort=popular`): a change to one listing alone (its
   * favourite count) drops only its kept answers that show that listing, and those by `popular`
   * (read-cache.ts). A public read without it must show no listing field.
   */
  showsListings?: 'one' | 'page';
  /** named examples of the success body for the OpenAPI document (the events feed: one per event type) */
  responseExamples?: Record<string, { summary: string; value: unknown }>;
  /** back office: a change (viewers get 403, checked in one place: back-office/procedure.ts) */
  write?: boolean;
  /** back office: allowed to an admin who must still turn on two-factor codes (live mode) */
  enrolment?: boolean;
  /** command line: the one line printed instead of the JSON result */
  cliLine?: (output: unknown) => string;
}>;

type MetaLookup = (path: string) => Meta | undefined;
let metaLookup: MetaLookup = () => undefined;
let consoleMetaLookup: MetaLookup = () => undefined;
/** The router registers how to find a procedure's meta, so errors can say where a bad field was sent. */
export function setMetaLookup(lookup: MetaLookup) {
  metaLookup = lookup;
}
/** The same for the back office's router (its paths repeat /v1's: `listings.get` …). */
export function setConsoleMetaLookup(lookup: MetaLookup) {
  consoleMetaLookup = lookup;
}

const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    errorFormatter({ shape, error, path, input, ctx }) {
      const lookup = ctx?.surface === 'console' ? consoleMetaLookup : metaLookup;
      const problem = toProblem(error, path ? lookup(path) : undefined, input);
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

/**
 * Whether a key may call a procedure of `level`, decided before any input is read. The HTTP layer
 * asks the same question before it reads a request body, so a refused caller costs no upload.
 */
export function keyRefusal(level: AuthLevel, auth: Context['auth']): DomainError | undefined {
  if (level === 'none' || level === 'operator') return undefined;
  if (auth === undefined) return new DomainError('api_key_required', 'Send your API key as "Authorization: Bearer <key>".');
  if (auth instanceof DomainError) return auth;
  if ((level === 'secret' || level === 'session') && auth.kind === 'publishable') {
    return new DomainError('publishable_key_not_allowed', 'Publishable keys may read public data only; use a secret key from your server.');
  }
  return undefined;
}

/** A session token checked as `sessionProcedure` does: its user's id, or why it is refused. */
async function checkSession(orm: Context['orm'], auth: AuthenticatedKey, token: string | undefined, now: Date): Promise<string | DomainError> {
  try {
    const { user } = await withMarketplace(auth.marketplace, () => authenticateSession(tenantEm(orm, auth.marketplace.id), token, now));
    return user.id;
  } catch (e) {
    if (e instanceof DomainError) return e;
    throw e;
  }
}

/** The user of a live session (undefined when the session has ended, is unknown or the user is blocked). */
export async function sessionUserId(orm: Context['orm'], auth: AuthenticatedKey, token: string, now: Date): Promise<string | undefined> {
  const checked = await checkSession(orm, auth, token, now);
  return checked instanceof DomainError ? undefined : checked;
}

/**
 * `sessionProcedure`'s check of `X-User-Session` (missing, ended, expired → 401; blocked → 403), for
 * the HTTP layer: an upload is refused before its body, an idempotent replay only outlives nothing.
 */
export async function sessionRefusal(orm: Context['orm'], auth: AuthenticatedKey, token: string | undefined, now: Date): Promise<DomainError | undefined> {
  const checked = await checkSession(orm, auth, token, now);
  return checked instanceof DomainError ? checked : undefined;
}

/**
 * Where a failed call's error becomes what the transports send: losing the database (down,
 * restarting) is a 503, and a domain error that says when to retry (503, 429) travels as an HttpError
 * carrying its Retry-After, so both transports send its headers; the client retries and we recover by
 * ourselves.
 */
function unavailableAsProblem(error: unknown): unknown {
  const cause = error instanceof TRPCError ? (error.cause ?? error) : error;
  const domain = unavailableError(cause) ?? (cause instanceof DomainError ? cause : undefined);
  if (!domain || domain.retryAfterSeconds === undefined) return error;
  return new TRPCError({ code: domain.code === 'rate_limited' ? 'TOO_MANY_REQUESTS' : 'SERVICE_UNAVAILABLE', message: domain.message, cause: HttpError.of(domain) });
}

/**
 * Outermost on every procedure: the error of a failed call, through unavailableAsProblem. One
 * layer: each tRPC middleware copies the call's options and, when it passes a context, the whole
 * context, on every request.
 */
const base = t.procedure.use(async ({ next }) => {
  const result = await next();
  if (!result.ok) {
    const error = unavailableAsProblem(result.error);
    if (error !== result.error) throw error;
  }
  return result;
});

/**
 * Every HTTP procedure: base's 503, and the caller's key checked against `meta.auth` before any input
 * is read; with a key, the marketplace's entity manager. A read's statements share one transaction:
 * the tenant's settings are applied once, not once per statement (each statement outside a
 * transaction is one of its own: begin, settings, statement, commit). Mutations keep their own
 * transactions where their commands put them.
 */
const authenticated = t.procedure.use(({ ctx, meta, type, next }) =>
  guarded(async () => {
    const level = meta?.auth ?? 'secret';
    const refusal = keyRefusal(level, ctx.auth);
    if (refusal) throw refusal;
    let result: Awaited<ReturnType<typeof next>>;
    if (level === 'none' || ctx.auth === undefined || ctx.auth instanceof DomainError) {
      result = await next();
    } else if (meta?.touchesNoTable) {
      const { marketplace, apiKeyId, kind } = ctx.auth;
      result = await withMarketplace(marketplace, () => next({ ctx: { marketplace, apiKey: { id: apiKeyId, kind } } }));
    } else {
      const { marketplace, apiKeyId, kind } = ctx.auth;
      const em = tenantEm(ctx.orm, marketplace.id);
      const keyCtx: Omit<KeyContext, keyof Context> = { em, marketplace, apiKey: { id: apiKeyId, kind } };
      result = await (type === 'query' ? inTransaction(em, () => withMarketplace(marketplace, () => next({ ctx: keyCtx }))) : withMarketplace(marketplace, () => next({ ctx: keyCtx })));
    }
    return result;
  }),
);

/**
 * `base`'s work for a middleware that does it itself (`authenticated`, the back office's
 * operatorProcedure): the error of a failed call, thrown or returned by the rest of the chain,
 * through unavailableAsProblem.
 */
export async function guarded<R extends { ok: boolean }>(run: () => Promise<R>): Promise<R> {
  try {
    const result = await run();
    if (!result.ok) {
      const failed = (result as R & { error: unknown }).error;
      const error = unavailableAsProblem(failed);
      if (error !== failed) throw error;
    }
    return result;
  } catch (e) {
    throw unavailableAsProblem(e);
  }
}

/**
 * `fn` in a transaction of `em` itself, committed (after a flush) when it returns, rolled back when it
 * or the commit fails. `em.transactional` would fork the request's fresh fork again and merge the
 * fork's entities back into it afterwards: work every read paid for nothing.
 */
export async function inTransaction<T>(em: KeyContext['em'], fn: () => Promise<T>): Promise<T> {
  await em.begin();
  try {
    const out = await fn();
    await em.commit();
    return out;
  } catch (e) {
    await em.rollback().catch(() => {}); // a connection whose rollback fails is released and discarded (releasing-driver.ts)
    throw e;
  }
}

/** Base for every public procedure: attach meta with `auth` and `openapi`. */
export const procedure = authenticated;

/**
 * Procedures that need a known marketplace: the context narrowed by type only. `procedure` already
 * puts the key's marketplace and entity manager in it; a middleware passing the context on again
 * would copy it once more per call, for nothing at run time.
 */
const _narrowed = procedure.use(({ ctx, next }) => next({ ctx: ctx as KeyContext }));
export const keyProcedure = procedure as unknown as typeof _narrowed;

/** `/v1/me…`: a secret key and a live session of a user who is not blocked (401 / 403 otherwise). */
export const sessionProcedure = keyProcedure.use(async ({ ctx, next }) => {
  const { user, session } = await authenticateSession(ctx.em, ctx.sessionToken, ctx.clock.now());
  const userCtx: Pick<UserContext, 'user' | 'session'> = { user, session };
  return next({ ctx: userCtx });
});

/** Console procedures: called in-process by the operator CLI, never mounted on HTTP. */
export const consoleProcedure = base;

/**
 * A procedure without `base`, for one whose single middleware does base's work itself (a failed
 * call's error through unavailableAsProblem, as `authenticated` does): each tRPC middleware level
 * copies the call's options twice and adds a promise per request (back-office/procedure.ts).
 */
export const unguardedProcedure = t.procedure;

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
  return locateFields(plainProblem(error, input), (field) => httpLocation(meta, field));
}

/**
 * The problem for an error, its field errors at plain paths within the input (`email`,
 * `price.amount`, `` for the input as a whole), as domain code reports them. Each transport then
 * says where it received them (`locateFields`).
 */
export function plainProblem(error: TRPCError | Error, input: unknown): Problem {
  const cause = error instanceof TRPCError ? error.cause : error;
  if (cause instanceof DomainError || cause instanceof HttpError) return problemOf(cause.code, cause.message, cause.errors);
  const unavailable = unavailableError(cause ?? error);
  if (unavailable) return problemOf(unavailable.code, unavailable.message);
  if (cause instanceof ZodError) {
    const errors = zodIssuesToFieldErrors(cause, input);
    return problemOf('validation_failed', describe(errors), errors);
  }
  if (error instanceof TRPCError) {
    const code = TRPC_TO_PROBLEM[error.code];
    if (code) return problemOf(code, error.message);
  }
  return problemOf('internal_error', 'Something went wrong on our side. Retry later; if it persists, contact support with the request id.');
}

/** Maps each plain field path to where the transport received it; a detail that names the one invalid field follows. */
export function locateFields(problem: Problem, where: (field: string) => string): Problem {
  if (problem.errors.length === 0) return problem;
  const errors = problem.errors.map((e) => ({ ...e, location: where(e.location) }));
  const only = problem.errors.length === 1 ? problem.errors[0]! : undefined;
  const detail = only && problem.detail === `${only.location}: ${only.message}` ? `${errors[0]!.location}: ${only.message}` : problem.detail;
  return { ...problem, detail, errors };
}

function describe(errors: FieldError[]): string {
  if (errors.length === 1) return `${errors[0]!.location}: ${errors[0]!.message}`;
  return `The request has ${errors.length} invalid fields; see errors.`;
}

/** Where a field was sent: a path parameter of the route, else the query (GET/DELETE) or the JSON body. */
function fieldLocation(meta: Meta | undefined, field: string): 'path' | 'query' | 'body' {
  const openapi = meta?.openapi;
  if (!openapi) return 'body';
  if (openapi.path.includes(`{${field}}`)) return 'path';
  return openapi.method === 'GET' || openapi.method === 'DELETE' ? 'query' : 'body';
}

/** `price.amount` → `body.price.amount` (the input as a whole: `body`). */
export function httpLocation(meta: Meta | undefined, field: string): string {
  if (field === '') return 'body';
  return `${fieldLocation(meta, field.split('.')[0]!)}.${field}`;
}

/** Zod issues as field errors at plain paths within the input (`price.amount`; `` for the input as a whole). */
export function zodIssuesToFieldErrors(error: ZodError, input: unknown): FieldError[] {
  const all = error.issues.flatMap((issue) => {
    // Unknown keys are reported once per key, each at its own location.
    const paths = issue.code === 'unrecognized_keys' ? issue.keys.map((k) => [...issue.path, k]) : [issue.path];
    return paths.map((p) => {
      const segments = p.map(String);
      const value = valueAt(input, segments);
      return { issue, error: { location: segments.join('.'), message: messageFor(issue, value), value: shownValue(segments, value) } };
    });
  });
  // zod runs every check of a field: a value too long to be an address is also "not an address".
  // The length says what to fix; one field's identical messages are one problem.
  const sized = new Set(all.filter((e) => e.issue.code === 'too_big' || e.issue.code === 'too_small').map((e) => e.error.location));
  const seen = new Set<string>();
  return all
    .filter((e) => !(e.issue.code === 'invalid_format' && sized.has(e.error.location)))
    .map((e) => e.error)
    .filter((e) => {
      const id = `${e.location}\u0000${e.message}`;
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    });
}

/** Secrets a client sends are never echoed back in a problem. */
const SECRET_FIELDS = new Set(['password', 'token', 'client_secret']);

/** What a problem shows of a value the client sent: null when absent or a secret. */
export function shownValue(path: string[], value: unknown): unknown {
  return value === undefined || path.some((seg) => SECRET_FIELDS.has(seg)) ? null : value;
}

function messageFor(issue: ZodError['issues'][number], value: unknown): string {
  if (issue.code === 'invalid_type' && value === undefined) return 'Required.';
  if (issue.code === 'unrecognized_keys') return 'Unknown field.';
  // Sizes are worded from the limit itself: a schema-wide custom message ("Must be an email
  // address.") would otherwise be repeated for a length problem too.
  if (issue.code === 'too_big' || issue.code === 'too_small') {
    const sized = sizeMessage(issue.code === 'too_big', issue.origin, Number(issue.code === 'too_big' ? issue.maximum : issue.minimum), issue.inclusive ?? true);
    if (sized) return sized;
  }
  const msg = issue.message.replace(/^Invalid input: /, '');
  return msg.endsWith('.') ? msg : `${msg}.`;
}

function sizeMessage(big: boolean, origin: string, limit: number, inclusive: boolean): string | undefined {
  const unit = origin === 'string' ? 'character' : origin === 'array' || origin === 'set' ? 'item' : undefined;
  if (unit) {
    const n = (k: number) => `${k} ${unit}${k === 1 ? '' : 's'}`;
    if (big) return inclusive ? `Must be at most ${n(limit)}.` : `Must be fewer than ${n(limit)}.`;
    return inclusive ? `Must be at least ${n(limit)}.` : `Must be more than ${n(limit)}.`;
  }
  if (origin === 'number' || origin === 'int' || origin === 'bigint') {
    if (big) return inclusive ? `Must be at most ${limit}.` : `Must be less than ${limit}.`;
    return inclusive ? `Must be at least ${limit}.` : `Must be greater than ${limit}.`;
  }
  return undefined;
}

function valueAt(input: unknown, path: string[]): unknown {
  let cur: unknown = input;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}
