import type { Operator, OperatorSession } from '@hm/db/entities';
import { DomainError, withMarketplace } from '@hm/domain/core';
import { authenticateOperator } from '@hm/domain/operators';
import { consoleProcedure, guarded, inTransaction, unguardedProcedure } from '../trpc.js';
import type { OperationScope } from '../console/operations.js';

/**
 * Back-office procedures (/console/trpc and /console/v1): a signed-in operator's session, never an
 * API key (401 otherwise). Who may change what is decided here, once: a procedure whose meta says
 * `write: true` is 403 for a viewer; in live mode an admin without two-factor codes may only enrol
 * (`enrolment: true`). Everything runs in the operator's marketplace: another's ids are 404.
 */
export const operatorProcedure = unguardedProcedure.use(({ ctx, meta, type, next }) =>
  // base's work here (consoleProcedure's middleware), not one more middleware level per request
  guarded(async () => {
    // a read shares the session's entities with the other reads of the same remembered session (changes nothing)
    const { operator, session, marketplace, em } = await authenticateOperator(ctx.orm, ctx.operatorToken, ctx.clock.now(), ctx.operatorLookup, { read: type === 'query' });
    if (meta?.write && operator.role !== 'admin') throw new DomainError('forbidden', 'Viewers may read everything and change nothing; ask an admin of the team.');
    if (ctx.mode === 'live' && operator.role === 'admin' && !operator.totpEnabledAt && !meta?.enrolment) {
      throw new DomainError('totp_enrolment_required', 'Admins of a live marketplace need two-factor codes: turn them on with POST /console/v1/me/totp and /me/totp/confirm first.');
    }
    const scope: OperationScope = { ctx, em, marketplace, actor: { type: 'operator', id: operator.id, email: operator.email } };
    const extra: { operator: Operator; operatorSession: OperatorSession; scope: OperationScope } = { operator, operatorSession: session, scope };
    // a read's statements share one transaction (the tenant's settings applied once), as on /v1
    return type === 'query' ? inTransaction(em, () => withMarketplace(marketplace, () => next({ ctx: extra }))) : withMarketplace(marketplace, () => next({ ctx: extra }));
  }),
);

/** Sign-in and accepting an invitation: no session yet. */
export const signInProcedure = consoleProcedure;
