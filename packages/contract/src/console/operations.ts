import { z } from 'zod';
import type { Marketplace } from '@hm/db/entities';
import { ApiKeySchema, MarketplaceSchema, UserSchema, OPERATOR_ROLES } from '@hm/db/entities';
import { createApiKey, listApiKeys, revokeApiKey, toApiKeyBody } from '@hm/domain/api-keys';
import { toMarketplaceConsoleBody, updateMarketplace, type ZMarketplaceSettings } from '@hm/domain/marketplace';
import type { EntityManager } from '@hm/db/orm';
import type { Context } from '@hm/domain/core';
import { NotFoundError } from '@hm/domain/core';
import { approveListing, denyListing, offerForListing, ZAmountInput, ZPriceScheduleInput } from '@hm/domain/listings';
import { findUserByEmail, setUserBlocked, toUserBody } from '@hm/domain/accounts';
import { replyAsSupport, supportInbox, toConsoleConversationBody, toMessageBody, ZMessageBody } from '@hm/domain/messages';
import { appendAudit, inviteOperator, toOperatorBody, type Actor } from '@hm/domain/operators';
import { ORDER_STATES, OrderSchema, type OrderState } from '@hm/db/entities';
import { ORDER_EVENTS, operatorTransition, teamOrderRows, toOrderConsoleBody } from '@hm/domain/orders';
import { ledgerRows, payoutRowsOf, payoutsOf } from '@hm/domain/payouts';
import { consoleListing } from './console-scope.js';

/**
 * The console's operations, each defined once: what it does within one marketplace, its audit
 * action and target (here, or beside its command-line procedure in procedures/*.ts). The command line
 * (console.router.ts, actor `cli`) and the back office (back-office/routers/*.ts, actor the signed-in operator) both call `perform`, which runs the
 * operation and, for a write, appends its one audit row.
 */
export interface OperationScope {
  ctx: Context;
  em: EntityManager;
  marketplace: Marketplace;
  actor: Actor;
}

export interface Operation<I, O> {
  action: string;
  write: boolean;
  target(input: I, output: O): { type: string; id: string };
  run(scope: OperationScope, input: I): Promise<O>;
  /** what the audit row keeps of the input, when not all of it (an upload's bytes) */
  auditData?(input: I): unknown;
}

export function operation<I, O>(def: {
  action: string;
  write: boolean;
  target(input: NoInfer<I>, output: NoInfer<O>): { type: string; id: string };
  run(scope: OperationScope, input: I): Promise<O>;
  auditData?(input: NoInfer<I>): unknown;
}): Operation<I, O> {
  return def;
}

/** Runs an operation; a write leaves one audit row (who, what, on which, the input without secrets, the request id). */
export async function perform<I, O>(op: Operation<I, O>, scope: OperationScope, input: I): Promise<O> {
  const output = await op.run(scope, input);
  if (op.write) await audit(scope, op.action, op.target(input, output), op.auditData ? op.auditData(input) : input);
  return output;
}

/** One audit row for a write that is not an operation of its own (sign-out, two-factor enrolment …). */
export function audit(scope: OperationScope, action: string, target: { type: string; id: string }, data: unknown): Promise<void> {
  return appendAudit(scope.em, scope.marketplace.id, { actor: scope.actor, action, target, data, requestId: scope.ctx.requestId, at: scope.ctx.clock.now() });
}

/** The command context of an operation's marketplace (the domain's commands take it). */
export const cmd = (s: OperationScope) => ({ ...s.ctx, em: s.em, marketplace: s.marketplace });
export const listingTarget = (i: { id: string }) => ({ type: 'listing', id: i.id });

export const ZDenyNote = z.string().min(1).max(2000).describe('Why, for the seller.');
export const ZOfferFields = {
  amount: ZAmountInput.min(1).describe("Offered price in minor units (öre, cents); at most one payment's limit, 99 999 999."),
  currency: z.string().length(3).describe("One of the marketplace's currencies."),
  note: z.string().max(2000).default('').describe('Shown to the seller with the offer.'),
  schedule: ZPriceScheduleInput.optional().describe('Price drops as JSON, each below the offer and the step before, e.g. [{"months":2,"amount":9000}].'),
};
type OfferInput = { id: string } & z.output<z.ZodObject<typeof ZOfferFields>>;

export const approveListingOp = operation({
  action: 'listing.approve',
  write: true,
  target: listingTarget,
  run: async (s, input: { id: string }) => consoleListing(s.ctx, s, await approveListing(cmd(s), input.id)),
});

export const denyListingOp = operation({
  action: 'listing.deny',
  write: true,
  target: listingTarget,
  run: async (s, input: { id: string; note: string }) => consoleListing(s.ctx, s, await denyListing(cmd(s), input.id, input.note)),
});

export const offerForListingOp = operation({
  action: 'listing.offer',
  write: true,
  target: listingTarget,
  run: async (s, input: OfferInput) => consoleListing(s.ctx, s, await offerForListing(cmd(s), input.id, input)),
});

/** Block or unblock by email (the CLI) or by id (the back office, resolved to the address first). */
function blockOp(blocked: boolean) {
  return operation({
    action: blocked ? 'user.block' : 'user.unblock',
    write: true,
    target: (_i, out: { user: { id: string } }) => ({ type: 'user', id: out.user.id }),
    run: async (s, input: { email: string } | { id: string }) => {
      let email: string;
      if ('id' in input) {
        const user = await s.em.findOne(UserSchema, { id: input.id });
        if (!user) throw new NotFoundError('This user');
        email = user.email;
      } else email = input.email;
      return { user: { ...toUserBody(await setUserBlocked(cmd(s), email, blocked)), blocked } };
    },
  });
}
export const blockUserOp = blockOp(true);
export const unblockUserOp = blockOp(false);

export const ZSupportList = {
  unanswered: z.boolean().default(false).describe('Only conversations whose last message is the user’s (waiting for support).'),
  limit: z.number().int().min(1).max(1000).default(100).describe('At most this many (1..1000, default 100).'),
};

export const listSupportOp = operation({
  action: 'support.list',
  write: false,
  target: () => ({ type: 'marketplace', id: '' }),
  run: async (s, input: { unanswered: boolean; limit: number }) => ({ items: (await supportInbox(s.em, input)).map(toConsoleConversationBody) }),
});

export const ZReplyBody = ZMessageBody.describe('The answer (1..5000 characters).');

export const replySupportOp = operation({
  action: 'conversation.reply',
  write: true,
  target: (i: { conversation: string }) => ({ type: 'conversation', id: i.conversation }),
  run: async (s, input: { conversation: string; body: string }) => {
    const { conversation, message } = await replyAsSupport(s.ctx, input.conversation, input.body, s.marketplace.id);
    return { conversation: toConsoleConversationBody(conversation), message: toMessageBody(message) };
  },
});

export const ZRole = z.enum(OPERATOR_ROLES).describe('admin: may do everything; viewer: reads everything, changes nothing.');

/** Where invitation links lead: the back-office app's page that sets the password. */
export function backOfficeUrl(ctx: Context): string {
  return ctx.backOfficeUrl ?? `${ctx.publicUrl.replace(/\/+$/, '')}/console`;
}

export const inviteOperatorOp = operation({
  action: 'operator.invite',
  write: true,
  target: (_i, out: { operator: { id: string } }) => ({ type: 'operator', id: out.operator.id }),
  run: async (s, input: { email: string; role: (typeof OPERATOR_ROLES)[number] }) => {
    const { operator, link, expiresAt } = await inviteOperator(s.em, s.marketplace, input, { now: s.ctx.clock.now(), linkBase: backOfficeUrl(s.ctx) });
    return { operator: toOperatorBody(operator), invitation: { expires_at: expiresAt.toISOString() }, invitation_url: link };
  },
});

/** A party of an order: a user id, or the user's email address (any case). */
const ZParty = (who: string) =>
  z
    .string()
    .trim()
    .max(254, { abort: true })
    .refine((v) => z.uuid().safeParse(v).success || z.email().safeParse(v).success, 'Must be a user id or an email address.')
    .optional()
    .describe(`Only orders whose ${who} is this user: their id or email address (any case).`);

export const ZOrderFilter = {
  state: z.enum(ORDER_STATES).optional().describe('Only orders in this state.'),
  chargeback: z.boolean().optional().describe('Only orders with a chargeback (the buyer’s bank disputed the payment), also after the seller was paid.'),
  buyer: ZParty('buyer'),
  seller: ZParty('seller'),
  listing: z.uuid().optional().describe('Only orders of this listing (its id).'),
  limit: z.number().int().min(1).max(1000).default(100).describe('At most this many (1..1000, default 100).'),
};

export interface OrderFilter {
  state?: OrderState | undefined;
  chargeback?: boolean | undefined;
  /** only orders in their state since before this (the attention list's paid orders never sent) */
  enteredBefore?: Date | undefined;
  /** by id (`orderParties` finds the id of an email address) */
  buyerId?: string | undefined;
  sellerId?: string | undefined;
  listingId?: string | undefined;
}

/** The orders a filter names, for counting (the attention list); `orders list` reads the same filters as plain rows (teamOrderRows). */
export function orderWhere(input: OrderFilter) {
  return {
    ...(input.state ? { status: input.state } : {}),
    ...(input.chargeback ? { chargeback: { $ne: null } } : {}),
    ...(input.enteredBefore ? { stateEnteredAt: { $lt: input.enteredBefore } } : {}),
    ...(input.buyerId ? { buyerId: input.buyerId } : {}),
    ...(input.sellerId ? { sellerId: input.sellerId } : {}),
    ...(input.listingId ? { listingId: input.listingId } : {}),
  };
}

/** The ids of the parties a search names (an email address → its user in this marketplace); null when one names nobody (no orders). */
async function orderParties(em: EntityManager, input: { buyer?: string | undefined; seller?: string | undefined }): Promise<{ buyerId?: string; sellerId?: string } | null> {
  const out: { buyerId?: string; sellerId?: string } = {};
  for (const [key, value] of [['buyerId', input.buyer], ['sellerId', input.seller]] as const) {
    if (!value) continue;
    if (!value.includes('@')) {
      out[key] = value;
      continue;
    }
    const user = await findUserByEmail(em, value);
    if (!user) return null;
    out[key] = user.id;
  }
  return out;
}

export const listOrdersOp = operation({
  action: 'orders.list',
  write: false,
  target: () => ({ type: 'marketplace', id: '' }),
  run: async (s, input: OrderFilter & { buyer?: string | undefined; seller?: string | undefined; listing?: string | undefined; limit: number }) => {
    const parties = await orderParties(s.em, input);
    if (!parties) return { items: [] };
    // a read of a page: plain rows (teamOrderRows, payoutRowsOf), the filters of orderWhere
    const orders = await teamOrderRows(s.em, { ...input, ...parties, ...(input.listing ? { listingId: input.listing } : {}) });
    const payouts = await payoutRowsOf(s.em, orders.map((o) => o.id));
    return { items: orders.map((o) => toOrderConsoleBody(o, { em: s.em, marketplace: s.marketplace }, payouts.get(o.id))) };
  },
});

export const getOrderOp = operation({
  action: 'order.get',
  write: false,
  target: (i: { id: string }) => ({ type: 'order', id: i.id }),
  run: async (s, input: { id: string }) => {
    const order = await s.em.findOne(OrderSchema, { id: input.id });
    if (!order) throw new NotFoundError('This order');
    const payouts = await payoutsOf(s.em, [input.id]);
    // the order's ledger rows (read-only) for the team's order page; the list leaves them out
    return { order: { ...toOrderConsoleBody(order, { em: s.em, marketplace: s.marketplace }, payouts.get(input.id)), ledger: await ledgerRows(s.em, input.id) } };
  },
});

export const transitionOrderOp = operation({
  action: 'order.transition',
  write: true,
  target: (i: { id: string }) => ({ type: 'order', id: i.id }),
  run: async (s, input: { id: string; transition: (typeof ORDER_EVENTS)[number]; data?: Record<string, string> | undefined }) => {
    const { order } = await operatorTransition(s.ctx, input.id, input.transition, input.data, s.marketplace.id);
    const payouts = await payoutsOf(s.em, [order.id]);
    return { order: toOrderConsoleBody(order, { em: s.em, marketplace: s.marketplace }, payouts.get(order.id)) };
  },
});

/** API keys (issue 26): the token of a new key is in the answer this once; revoking answers 401 to it from then on. */
export const ZKeyKind = z.enum(['secret', 'publishable']).describe('Secret keys for servers; publishable keys read public data only.');
export const listKeysOp = operation({
  action: 'api_key.list',
  write: false,
  target: () => ({ type: 'api_key', id: '' }),
  run: async (s, _input: object) => ({ items: (await listApiKeys(s.em)).map(toApiKeyBody) }),
});
export const createKeyOp = operation({
  action: 'api_key.create',
  write: true,
  target: (_i, out: { key: { id: string } }) => ({ type: 'api_key', id: out.key.id }),
  run: async (s, input: { kind: 'secret' | 'publishable' }) => {
    const { key, token } = createApiKey(s.em, s.marketplace.id, input.kind, s.ctx.mode);
    await s.em.flush();
    return { key: toApiKeyBody(key), token };
  },
});
export const revokeKeyOp = operation({
  action: 'api_key.revoke',
  write: true,
  target: (i: { id: string }) => ({ type: 'api_key', id: i.id }),
  run: async (s, input: { id: string }) => {
    // within the marketplace: another's key id is 404 like one that never existed
    if (!(await s.em.findOne(ApiKeySchema, { id: input.id, marketplaceId: s.marketplace.id }))) throw new NotFoundError('API key');
    return { key: toApiKeyBody(await revokeApiKey(s.em, input.id, s.ctx.clock.now())) };
  },
});

/** The marketplace's settings, as `marketplace get` shows them and `marketplace update` takes them (checked as a whole). */
export const getSettingsOp = operation({
  action: 'settings.get',
  write: false,
  target: () => ({ type: 'marketplace', id: '' }),
  run: async (s, _input: object) => ({ marketplace: toMarketplaceConsoleBody(s.marketplace) }),
});
export const updateSettingsOp = operation({
  action: 'settings.update',
  write: true,
  target: (_i, out: { marketplace: { id: string } }) => ({ type: 'marketplace', id: out.marketplace.id }),
  run: async (s, input: z.output<typeof ZMarketplaceSettings>) => {
    // the row as this unit of work knows it (the scope's may come from another), so the change is flushed here
    const m = await s.em.findOneOrFail(MarketplaceSchema, { id: s.marketplace.id });
    return { marketplace: toMarketplaceConsoleBody(await updateMarketplace(s.em, m, input)) }; // queues a reprice when the currencies change
  },
});
