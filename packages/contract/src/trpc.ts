import { initTRPC, TRPCError } from '@trpc/server';
import { tenantEm } from '@hm/db/orm';
import type { Context, KeyContext, UserContext } from '@hm/domain/core';
import { authenticateSession } from '@hm/domain/accounts';
import { DomainError, HttpError } from './problems.js';
import { withMarketplace } from '@hm/domain/core';
import { unavailableError } from '@hm/domain/core';
import { metaAt, type Meta } from './procedure-meta.js';
import { keyRefusal } from './caller-checks.js';
import { toProblem } from './error-problems.js';

// the procedures' meta, the callers' checks and the errors' problems, as the package exports them (@hm/contract/trpc)
export { setConsoleMetaLookup, setMetaLookup, type AuthLevel, type Meta } from './procedure-meta.js';
export { keyRefusal, sessionRefusal, sessionUserId } from './caller-checks.js';
export { httpLocation, locateFields, plainProblem, shownValue, toProblem, zodIssuesToFieldErrors } from './error-problems.js';

const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    errorFormatter({ shape, error, path, input, ctx }) {
      const problem = toProblem(error, path ? metaAt(ctx?.surface, path) : undefined, input);
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
