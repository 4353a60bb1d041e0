import { z } from 'zod';
import { findMarketplaceBySlug } from '@hm/domain/marketplace';
import { crossTenantEm, tenantEm } from '@hm/db/orm';
import { DomainError, NotFoundError, ZSlug } from '@hm/domain/core';
import { ZPassword } from '@hm/domain/accounts';
import { acceptInvitation, confirmTotp, endOperatorSession, signInOperator, startTotpEnrolment, toOperatorBody } from '@hm/domain/operators';
import type { Context } from '@hm/domain/core';
import type { Marketplace } from '@hm/db/entities';
import { router } from '../../trpc.js';
import { audit } from '../../console/operations.js';
import { operatorProcedure, signInProcedure } from '../procedure.js';
import { openapi } from '../meta.js';
import { ZOperatorSignedIn } from '../schemas.js';

/** A session's audit rows are the marketplace's: the scope of a sign-in whose marketplace is named by slug. */
async function marketplaceOfSlug(ctx: Context, slug: string): Promise<Marketplace> {
  try {
    return await findMarketplaceBySlug(crossTenantEm(ctx.orm), slug);
  } catch (e) {
    if (e instanceof NotFoundError) throw new DomainError('invalid_credentials', 'The email address or password is wrong.');
    throw e;
  }
}

export const sessions = router({
  create: signInProcedure
    .meta({
      auth: 'none',
      successStatus: 201,
      problems: [429],
      requestExample: { marketplace: 'demo', email: 'admin@example.com', password: 'correct horse battery', code: '123456' },
      openapi: openapi(
        'POST',
        '/sessions',
        'Sessions',
        'Sign in',
        '401 `invalid_credentials` for a wrong marketplace, address or password (the same answer each way); with two-factor codes on, 401 `totp_required` without `code` and `totp_invalid` for a wrong one. 10 failures for an address in 15 minutes lock it for the rest of that window: 429 with `Retry-After`. Sets the console cookie too.',
      ),
    })
    .input(
      z.strictObject({
        marketplace: ZSlug.describe('Slug of the marketplace.'),
        email: z.string().min(1).max(254),
        password: z.string().min(1).max(128),
        code: z.string().max(10).optional().describe('The 6 digits of the authenticator app (when two-factor codes are on).'),
      }),
    )
    .output(ZOperatorSignedIn)
    .mutation(async ({ ctx, input }) => {
      const m = await marketplaceOfSlug(ctx, input.marketplace);
      const { operator, token } = await signInOperator(tenantEm(ctx.orm, m.id), m, input, { now: ctx.clock.now(), requestId: ctx.requestId });
      return { token, operator: toOperatorBody(operator) };
    }),
  endCurrent: operatorProcedure
    .meta({ auth: 'operator', successStatus: 204, openapi: openapi('DELETE', '/sessions/current', 'Sessions', 'Sign out', 'Ends the session this request was made with (viewers too).') })
    .input(z.object({}))
    .output(z.void())
    .mutation(async ({ ctx }) => {
      await endOperatorSession(ctx.scope.em, ctx.operatorSession, ctx.clock.now());
      await audit(ctx.scope, 'session.sign_out', { type: 'operator', id: ctx.operator.id }, {});
    }),
});

export const invitations = router({
  accept: signInProcedure
    .meta({
      auth: 'none',
      requestExample: { token: 'opi_…', password: 'correct horse battery' },
      openapi: openapi('POST', '/invitations/accept', 'Sessions', 'Accept an invitation', 'Sets the password and signs in. 422 `link_invalid`, `link_used` or `link_expired` (7 days).'),
    })
    .input(z.strictObject({ token: z.string().min(1).max(200), password: ZPassword }))
    .output(ZOperatorSignedIn)
    .mutation(async ({ ctx, input }) => {
      const { operator, token } = await acceptInvitation(ctx.orm, input, { now: ctx.clock.now(), requestId: ctx.requestId });
      return { token, operator: toOperatorBody(operator) };
    }),
});

export const me = router({
  get: operatorProcedure
    .meta({ auth: 'operator', enrolment: true, openapi: openapi('GET', '/me', 'Sessions', 'The signed-in operator', 'Who this session is: id, address, role, whether two-factor codes are on, and the marketplace.') })
    .input(z.object({}))
    .output(z.object({ id: z.uuid(), email: z.string(), role: z.enum(['admin', 'viewer']), totp_enabled: z.boolean(), marketplace: z.object({ slug: z.string(), name: z.string() }) }))
    .query(({ ctx }) => {
      const o = toOperatorBody(ctx.operator);
      return { id: o.id, email: o.email, role: o.role, totp_enabled: o.totp_enabled, marketplace: { slug: ctx.scope.marketplace.slug, name: ctx.scope.marketplace.name } };
    }),
  startTotp: operatorProcedure
    .meta({
      auth: 'operator',
      enrolment: true,
      problems: [409],
      openapi: openapi('POST', '/me/totp', 'Sessions', 'Start two-factor enrolment', 'A new secret (base32) and its `otpauth://` URL for an authenticator app (SHA-1, 6 digits, 30 s). Not in use until confirmed. 409 when already on.'),
    })
    .input(z.object({}))
    .output(z.object({ secret: z.string(), otpauth_url: z.string() }))
    .mutation(async ({ ctx }) => {
      const out = await startTotpEnrolment(ctx.scope.em, ctx.operator, ctx.scope.marketplace.name);
      await audit(ctx.scope, 'totp.enrol', { type: 'operator', id: ctx.operator.id }, {});
      return out;
    }),
  confirmTotp: operatorProcedure
    .meta({ auth: 'operator', enrolment: true, problems: [409], requestExample: { code: '123456' }, openapi: openapi('POST', '/me/totp/confirm', 'Sessions', 'Turn two-factor codes on', '401 `totp_invalid` for a wrong code (the step before and after count too).') })
    .input(z.strictObject({ code: z.string().min(1).max(10) }))
    .output(z.object({ totp_enabled: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      await confirmTotp(ctx.scope.em, ctx.operator, input.code, ctx.clock.now());
      await audit(ctx.scope, 'totp.confirm', { type: 'operator', id: ctx.operator.id }, {});
      return { totp_enabled: true as const };
    }),
});
