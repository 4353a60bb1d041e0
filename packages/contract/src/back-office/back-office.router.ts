import { z } from 'zod';
import { LISTING_STATUSES, ListingSchema, UserSchema } from '@hm/db/entities';
import { findMarketplaceBySlug } from '@hm/domain/marketplace';
import { crossTenantEm, tenantEm } from '@hm/db/orm';
import { DomainError, NotFoundError, ZSlug } from '@hm/domain/core';
import { normalizeEmail, toUserBody, ZPassword } from '@hm/domain/accounts';
import { listListingsForTeam } from '@hm/domain/listings';
import { conversationWithMessages, toConsoleConversationBody, toMessageBody } from '@hm/domain/messages';
import {
  acceptInvitation,
  confirmTotp,
  endOperatorSession,
  listAudit,
  listOperators,
  signInOperator,
  startTotpEnrolment,
  toAuditBody,
  toOperatorBody,
} from '@hm/domain/operators';
import { createCallerFactory, router, setConsoleMetaLookup, type Meta } from '../trpc.js';
import { consoleListing, consoleListings } from '../console/console-scope.js';
import {
  ZDenyNote,
  ZOfferFields,
  ZReplyBody,
  ZRole,
  ZSupportList,
  approveListingOp,
  audit,
  blockUserOp,
  denyListingOp,
  inviteOperatorOp,
  listSupportOp,
  offerForListingOp,
  perform,
  replySupportOp,
  unblockUserOp,
  ZOrderFilter,
  getOrderOp,
  listOrdersOp,
  transitionOrderOp,
  ZKeyKind,
  createKeyOp,
  listKeysOp,
  revokeKeyOp,
  getSettingsOp,
  updateSettingsOp,
} from '../console/operations.js';
import { ZMarketplaceSettings } from '@hm/domain/marketplace';
import { ZTransitionFields } from '../console/procedures/transition-order.js';
import { ZAttention, attentionOp } from '../console/attention.js';
import { operatorProcedure, signInProcedure } from './procedure.js';
import { webhooksRouter as webhooks } from './webhooks.router.js';
import { ZAnyObject, ZAuditEntry, ZOperator, ZOperatorSignedIn, ZPage, ZPaging } from './schemas.js';
import type { Context } from '@hm/domain/core';
import type { Marketplace } from '@hm/db/entities';
// the flows fill the effect slots the modules' machines name (a listing's approval emails the seller)
import '@hm/domain/flows';

const openapi = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: `/${string}`, tag: string, summary: string, description?: string) =>
  ({ method, path, tags: [tag], summary, ...(description ? { description } : {}) });
const read = (o: ReturnType<typeof openapi>): Meta => ({ auth: 'operator', openapi: o });
const write = (o: ReturnType<typeof openapi>, extra: Partial<Meta> = {}): Meta => ({ auth: 'operator', write: true, openapi: o, ...extra });

const ZId = z.strictObject({ id: z.uuid() });
const ZListingOut = z.object({ listing: ZAnyObject });
const ZUserOut = z.object({ user: ZAnyObject });

/** A session's audit rows are the marketplace's: the scope of a sign-in whose marketplace is named by slug. */
async function marketplaceOfSlug(ctx: Context, slug: string): Promise<Marketplace> {
  try {
    return await findMarketplaceBySlug(crossTenantEm(ctx.orm), slug);
  } catch (e) {
    if (e instanceof NotFoundError) throw new DomainError('invalid_credentials', 'The email address or password is wrong.');
    throw e;
  }
}

const sessions = router({
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

const invitations = router({
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

const me = router({
  get: operatorProcedure
    .meta({ auth: 'operator', enrolment: true, openapi: openapi('GET', '/me', 'Sessions', 'The signed-in operator') })
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
    .meta({ auth: 'operator', enrolment: true, problems: [409], openapi: openapi('POST', '/me/totp/confirm', 'Sessions', 'Turn two-factor codes on', '401 `totp_invalid` for a wrong code (the step before and after count too).') })
    .input(z.strictObject({ code: z.string().min(1).max(10) }))
    .output(z.object({ totp_enabled: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      await confirmTotp(ctx.scope.em, ctx.operator, input.code, ctx.clock.now());
      await audit(ctx.scope, 'totp.confirm', { type: 'operator', id: ctx.operator.id }, {});
      return { totp_enabled: true as const };
    }),
});

const listings = router({
  list: operatorProcedure
    .meta(read(openapi('GET', '/listings', 'Listings', 'Listings', 'Every seller’s, latest change first; `status=pending_approval` is the review queue.')))
    .input(z.strictObject({ status: z.enum(LISTING_STATUSES).optional(), ...ZPaging }))
    .output(ZPage(ZAnyObject))
    .query(async ({ ctx, input }) => {
      const { em, marketplace } = ctx.scope;
      const page = await listListingsForTeam(em, marketplace.id, input);
      const items = await consoleListings(ctx, ctx.scope, page.items);
      return { items, ...(page.nextCursor ? { next_cursor: page.nextCursor } : {}) };
    }),
  get: operatorProcedure
    .meta(read(openapi('GET', '/listings/{id}', 'Listings', 'A listing')))
    .input(ZId)
    .output(ZListingOut)
    .query(async ({ ctx, input }) => {
      const l = await ctx.scope.em.findOne(ListingSchema, { id: input.id });
      if (!l) throw new NotFoundError('This listing');
      return consoleListing(ctx, ctx.scope, l);
    }),
  approve: operatorProcedure
    .meta(write(openapi('POST', '/listings/{id}/approve', 'Listings', 'Approve', 'The listing goes on sale; the seller is emailed.'), { problems: [403, 409] }))
    .input(ZId)
    .output(ZListingOut)
    .mutation(({ ctx, input }) => perform(approveListingOp, ctx.scope, input)),
  deny: operatorProcedure
    .meta(write(openapi('POST', '/listings/{id}/deny', 'Listings', 'Deny', 'The seller is emailed the note.'), { problems: [403, 409], requestExample: { note: 'Photos are too dark.' } }))
    .input(z.strictObject({ id: z.uuid(), note: ZDenyNote }))
    .output(ZListingOut)
    .mutation(({ ctx, input }) => perform(denyListingOp, ctx.scope, input)),
  offer: operatorProcedure
    .meta(write(openapi('POST', '/listings/{id}/offer', 'Listings', 'Offer a price', 'A valuation: the seller is emailed and answers from the storefront.'), { problems: [403, 409], requestExample: { price: { amount: 12000, currency: 'SEK' }, note: 'Our offer.' } }))
    .input(
      z.strictObject({
        id: z.uuid(),
        price: z.strictObject({ amount: ZOfferFields.amount, currency: ZOfferFields.currency }),
        note: ZOfferFields.note,
        schedule: ZOfferFields.schedule,
      }),
    )
    .output(ZListingOut)
    .mutation(({ ctx, input }) => perform(offerForListingOp, ctx.scope, { id: input.id, amount: input.price.amount, currency: input.price.currency, note: input.note, schedule: input.schedule })),
});

const support = router({
  list: operatorProcedure
    .meta(read(openapi('GET', '/support', 'Support', 'Support inbox', 'Support conversations, latest message first; `unanswered=true`: those waiting for the team.')))
    .input(z.strictObject({ unanswered: z.stringbool().meta({ description: ZSupportList.unanswered.description, override: { type: 'boolean' } }).default(false), limit: z.coerce.number().int().min(1).max(1000).default(100).describe('1..1000, default 100.') }))
    .output(z.object({ items: z.array(ZAnyObject) }))
    .query(({ ctx, input }) => perform(listSupportOp, ctx.scope, input)),
});

const conversations = router({
  get: operatorProcedure
    .meta(read(openapi('GET', '/conversations/{id}', 'Support', 'A conversation', 'Any kind, with its messages, oldest first.')))
    .input(z.strictObject({ id: z.uuid(), after: z.coerce.number().int().min(0).default(0), limit: z.coerce.number().int().min(1).max(1000).default(200) }))
    .output(z.object({ conversation: ZAnyObject, messages: z.array(ZAnyObject) }))
    .query(async ({ ctx, input }) => {
      const { conversation, messages } = await conversationWithMessages(ctx, input.id, input, ctx.scope.marketplace.id);
      return { conversation: toConsoleConversationBody(conversation), messages: messages.map(toMessageBody) };
    }),
  reply: operatorProcedure
    .meta(write(openapi('POST', '/conversations/{id}/messages', 'Support', 'Reply as the marketplace', 'Support conversations only; the user gets a notice email.'), { successStatus: 201, problems: [403], requestExample: { body: 'Thanks, we are on it.' } }))
    .input(z.strictObject({ id: z.uuid(), body: ZReplyBody }))
    .output(z.object({ conversation: ZAnyObject, message: ZAnyObject }))
    .mutation(({ ctx, input }) => perform(replySupportOp, ctx.scope, { conversation: input.id, body: input.body })),
});

const users = router({
  list: operatorProcedure
    .meta(read(openapi('GET', '/users', 'Users', 'Find users', 'By exact address (`email`, any case), else the newest first.')))
    .input(z.strictObject({ email: z.string().max(254).optional(), ...ZPaging }))
    .output(z.object({ items: z.array(ZAnyObject) }))
    .query(async ({ ctx, input }) => {
      const rows = await ctx.scope.em.find(UserSchema, input.email ? { emailNormalized: normalizeEmail(input.email) } : {}, { orderBy: { createdAt: 'desc', id: 'desc' }, limit: input.limit });
      return { items: rows.map((u) => ({ ...toUserBody(u), blocked: u.blockedAt !== null && u.blockedAt !== undefined })) };
    }),
  block: operatorProcedure
    .meta(write(openapi('POST', '/users/{id}/block', 'Users', 'Block', 'Their sessions end and their listings leave the shop.'), { problems: [403] }))
    .input(ZId)
    .output(ZUserOut)
    .mutation(({ ctx, input }) => perform(blockUserOp, ctx.scope, input)),
  unblock: operatorProcedure
    .meta(write(openapi('POST', '/users/{id}/unblock', 'Users', 'Unblock'), { problems: [403] }))
    .input(ZId)
    .output(ZUserOut)
    .mutation(({ ctx, input }) => perform(unblockUserOp, ctx.scope, input)),
});

const operators = router({
  list: operatorProcedure
    .meta(read(openapi('GET', '/operators', 'Team', 'The team')))
    .input(z.object({}))
    .output(z.object({ items: z.array(ZOperator) }))
    .query(async ({ ctx }) => ({ items: (await listOperators(ctx.scope.em)).map(toOperatorBody) })),
  invite: operatorProcedure
    .meta(write(openapi('POST', '/operators', 'Team', 'Invite', 'Admins only. The address gets an email with a link, valid 7 days, to set a password. 409 `email_in_use` for a member of the team.'), { successStatus: 201, problems: [403, 409], requestExample: { email: 'sam@example.com', role: 'viewer' } }))
    .input(z.strictObject({ email: z.email('Must be an email address.').max(254), role: ZRole }))
    .output(z.object({ operator: ZOperator, invitation: z.object({ expires_at: z.string() }) }))
    .mutation(async ({ ctx, input }) => {
      const { operator, invitation } = await perform(inviteOperatorOp, ctx.scope, input);
      return { operator, invitation }; // the link goes to the invitee only (the command line prints it for the first operators)
    }),
});

const ZApiKey = z.object({ id: z.uuid(), kind: z.enum(['secret', 'publishable']), mode: z.enum(['test', 'live']), hint: z.string(), created_at: z.string(), revoked_at: z.string().nullable() });
const keys = router({
  list: operatorProcedure
    .meta(read(openapi('GET', '/keys', 'Settings', 'API keys', 'Hints only (`sk_test_…abcd`), never the keys; revoked ones too, oldest first.')))
    .input(z.object({}))
    .output(z.object({ items: z.array(ZApiKey) }))
    .query(({ ctx }) => perform(listKeysOp, ctx.scope, {})),
  create: operatorProcedure
    .meta(write(openapi('POST', '/keys', 'Settings', 'Create an API key', 'Admins only. `token` is the key: shown in this answer only (only its hash is kept).'), { successStatus: 201, problems: [403], requestExample: { kind: 'secret' } }))
    .input(z.strictObject({ kind: ZKeyKind }))
    .output(z.object({ key: ZApiKey, token: z.string() }))
    .mutation(({ ctx, input }) => perform(createKeyOp, ctx.scope, input)),
  revoke: operatorProcedure
    .meta(write(openapi('POST', '/keys/{id}/revoke', 'Settings', 'Revoke an API key', 'Admins only. Requests with it answer 401 from then on; 409 when it was already revoked.'), { problems: [403, 409] }))
    .input(ZId)
    .output(z.object({ key: ZApiKey }))
    .mutation(({ ctx, input }) => perform(revokeKeyOp, ctx.scope, input)),
});

const settings = router({
  get: operatorProcedure
    .meta(read(openapi('GET', '/settings', 'Settings', 'The marketplace’s settings', 'As the command line’s `marketplace get` shows them.')))
    .input(z.object({}))
    .output(z.object({ marketplace: ZAnyObject }))
    .query(({ ctx }) => perform(getSettingsOp, ctx.scope, {})),
  update: operatorProcedure
    .meta(
      write(openapi('PATCH', '/settings', 'Settings', 'Change settings', 'Admins only. Any subset of what the command line’s `marketplace update` takes; the result is checked as a whole (every problem at once). Changing the currencies reprices in the background.'), {
        problems: [403],
        requestExample: { commission_percent: 12 },
      }),
    )
    .input(ZMarketplaceSettings)
    .output(z.object({ marketplace: ZAnyObject }))
    .mutation(({ ctx, input }) => perform(updateSettingsOp, ctx.scope, input)),
});

const orders = router({
  list: operatorProcedure
    .meta(read(openapi('GET', '/orders', 'Orders', 'Orders', 'Newest first; `state=disputed`, `chargeback=true` …')))
    .input(z.strictObject({ state: ZOrderFilter.state, chargeback: z.stringbool().meta({ description: ZOrderFilter.chargeback.description, override: { type: 'boolean' } }).optional(), limit: z.coerce.number().int().min(1).max(1000).default(100).describe('1..1000, default 100.') }))
    .output(z.object({ items: z.array(ZAnyObject) }))
    .query(({ ctx, input }) => perform(listOrdersOp, ctx.scope, input)),
  get: operatorProcedure
    .meta(read(openapi('GET', '/orders/{id}', 'Orders', 'An order', 'With its payment, refund, booking and payout.')))
    .input(ZId)
    .output(z.object({ order: ZAnyObject }))
    .query(({ ctx, input }) => perform(getOrderOp, ctx.scope, input)),
  transition: operatorProcedure
    .meta(write(openapi('POST', '/orders/{id}/transitions', 'Orders', 'Move an order', 'The team’s moves: `cancel` (a paid order never sent: refunded), `resolve-received`, `resolve-canceled` (refunded), `mark-delivered`. 409 when the order’s state does not allow it.'), { problems: [403, 409], requestExample: { transition: 'resolve-received' } }))
    .input(z.strictObject({ id: z.uuid(), ...ZTransitionFields }))
    .output(z.object({ order: ZAnyObject }))
    .mutation(({ ctx, input }) => perform(transitionOrderOp, ctx.scope, input)),
});

const ZQueue = z.object({ count: z.number().int().describe('How many in all.'), items: z.array(ZAnyObject).describe('The first `limit`, the latest first.') });

const attention = router({
  get: operatorProcedure
    .meta(
      read(
        openapi(
          'GET',
          '/attention',
          'Attention',
          'What waits for the team',
          'Each queue with its count (of all) and its first `limit` items, the latest first: `listings_pending_approval`, `valuation_requests`, `storage_collections` (the seller asked for storage and the listing is still with them), `orders_disputed`, `orders_not_sent` (paid and not marked sent for `not_sent_after_days` days, half the time after which it is canceled by itself), `orders_chargeback`, `payouts_held` (for a chargeback), `payouts_failed`, `support_unanswered`, `webhooks_failing` (failing or disabled endpoints). Viewers read it too.',
        ),
      ),
    )
    .input(z.strictObject({ limit: z.coerce.number().int().min(1).max(50).default(5).describe(ZAttention.limit.description ?? '') }))
    .output(
      z.object({
        total: z.number().int(),
        not_sent_after_days: z.number(),
        queues: z.object({
          listings_pending_approval: ZQueue,
          valuation_requests: ZQueue,
          storage_collections: ZQueue,
          orders_disputed: ZQueue,
          orders_not_sent: ZQueue,
          orders_chargeback: ZQueue,
          payouts_held: ZQueue,
          payouts_failed: ZQueue,
          support_unanswered: ZQueue,
          webhooks_failing: ZQueue,
        }),
      }),
    )
    .query(({ ctx, input }) => perform(attentionOp, ctx.scope, input)),
});

const auditRouter = router({
  list: operatorProcedure
    .meta(read(openapi('GET', '/audit', 'Team', 'Audit trail', 'Every console write and sign-in (success and failure), newest first. Filters: `operator` (id), `action`, `target_type`, `target_id`, `from`/`to` (ISO times, `to` exclusive).')))
    .input(
      z.strictObject({
        ...ZPaging,
        operator: z.uuid().optional(),
        action: z.string().max(100).optional(),
        target_type: z.string().max(50).optional(),
        target_id: z.string().max(254).optional(),
        from: z.iso.datetime().optional(),
        to: z.iso.datetime().optional(),
      }),
    )
    .output(ZPage(ZAuditEntry))
    .query(async ({ ctx, input }) => {
      const page = await listAudit(ctx.scope.em, ctx.scope.marketplace.id, input);
      return { items: page.items.map(toAuditBody), ...(page.nextCursor ? { next_cursor: page.nextCursor } : {}) };
    }),
});

/** The back office's API: tRPC at /console/trpc for the app, REST at /console/v1 (its own OpenAPI document); none of it under /v1. */
export const backOfficeRouter = router({ sessions, invitations, me, attention, listings, orders, support, conversations, users, operators, keys, settings, webhooks, audit: auditRouter });
export type BackOfficeRouter = typeof backOfficeRouter;

setConsoleMetaLookup((path) => (backOfficeRouter._def.procedures as unknown as Record<string, { _def: { meta?: Meta } }>)[path]?._def.meta);

const createCaller = createCallerFactory(backOfficeRouter);
/** In-process client (tests). */
export function backOfficeCaller(ctx: Context) {
  return createCaller(ctx);
}
