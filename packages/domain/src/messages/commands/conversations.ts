import { ListingSchema, OrderSchema } from '@hm/db/entities';
import { uuidv7, type EntityManager } from '@hm/db/orm';
import type { UserCommandContext } from '../../core/context.js';
import { NotFoundError, ValidationError } from '../../core/errors.js';
import { findOrderFor } from '../../orders/index.js';
import {
  findConversation,
  findListingConversation,
  listConversations,
  listMessages,
  markRead,
  openConversation,
  viewConversation,
  type ConversationRow,
  type ConversationView,
  type MessageRow,
  type NewConversation,
  type Side,
} from '../messages.queries.js';
import type { StartConversationInput } from '../messages.schema.js';
import { countMessage, countNewConversation } from './message-limits.js';
import { writeMessage } from './write-message.js';

/** The side of a conversation a user is on (undefined: not a party). */
export function sideOf(c: ConversationRow, userId: string): Side | undefined {
  if (c.user_a === userId) return 'a';
  if (c.user_b === userId) return 'b';
  return undefined;
}

/**
 * Who talks about what. A listing: its asker with its seller; only listings on sale, unless the
 * asker already has a conversation or an order about it (a listing never on sale, or another's
 * draft, is 404 like GET /v1/listings/{id}); one's own listing is 422. An order: its buyer and its
 * seller, whichever writes first, in any state. Support: the user with the marketplace.
 */
async function subjectOf(ctx: UserCommandContext, em: EntityManager, input: StartConversationInput): Promise<NewConversation> {
  const me = ctx.user.id;
  if (input.listing_id) {
    const listing = await em.findOne(ListingSchema, { id: input.listing_id });
    if (!listing) throw new NotFoundError('This listing');
    if (listing.sellerId === me) throw new ValidationError([{ location: 'listing_id', message: 'This is your own listing; buyers write to you about it.', value: input.listing_id }]);
    const subject: NewConversation = { kind: 'listing', userA: me, userB: listing.sellerId, listingId: listing.id, orderId: null };
    if (listing.onSale || (await findListingConversation(em, listing.id, me))) return subject;
    if ((await em.count(OrderSchema, { listingId: listing.id, buyerId: me })) > 0) return subject;
    throw new NotFoundError('This listing');
  }
  if (input.order_id) {
    const { order } = await findOrderFor({ ...ctx, em }, input.order_id);
    return { kind: 'order', userA: order.buyerId, userB: order.sellerId, listingId: order.listingId, orderId: order.id };
  }
  return { kind: 'support', userA: me, userB: null, listingId: null, orderId: null };
}

/** POST /v1/me/conversations: opens the conversation for the pair and subject, or continues the one there is, with a message. */
export function startConversation(ctx: UserCommandContext, input: StartConversationInput): Promise<{ conversation: ConversationView; message: MessageRow }> {
  return ctx.em.transactional(async (em) => {
    const now = ctx.clock.now();
    const id = uuidv7();
    const conversation = await openConversation(em, id, await subjectOf(ctx, em, input), now);
    if (conversation.id === id) await countNewConversation(em, ctx.marketplace, ctx.user.id, now);
    await countMessage(em, ctx.marketplace, ctx.user.id, now);
    const message = await writeMessage(em, ctx.marketplace.id, conversation, ctx.user.id, input.body, now);
    return { conversation: await viewConversation(em, conversation.id, ctx.user.id), message };
  });
}

/** A conversation of the signed-in user (anyone else's, or another marketplace's: 404 like a missing one). */
async function partyConversation(ctx: UserCommandContext, em: EntityManager, id: string, lock = false): Promise<{ conversation: ConversationRow; side: Side }> {
  const conversation = await findConversation(em, id, { lock });
  const side = conversation && sideOf(conversation, ctx.user.id);
  if (!conversation || !side) throw new NotFoundError('This conversation');
  return { conversation, side };
}

/** GET /v1/me/conversations. */
export function myConversations(ctx: UserCommandContext, page: { limit: number; offset: number }): Promise<ConversationView[]> {
  return listConversations(ctx.em, ctx.user.id, page);
}

/** GET /v1/me/conversations/{id}/messages: a page after a message id, oldest first; what it returns is read. */
export function readMessages(ctx: UserCommandContext, input: { id: string; after: number; limit: number }): Promise<MessageRow[]> {
  return ctx.em.transactional(async (em) => {
    const { conversation, side } = await partyConversation(ctx, em, input.id);
    const messages = await listMessages(em, conversation.id, input);
    if (messages.length) await markRead(em, conversation.id, side, messages.at(-1)!.id);
    return messages;
  });
}

/** POST /v1/me/conversations/{id}/messages. */
export function postMessage(ctx: UserCommandContext, input: { id: string; body: string }): Promise<MessageRow> {
  return ctx.em.transactional(async (em) => {
    const { conversation } = await partyConversation(ctx, em, input.id, true);
    const now = ctx.clock.now();
    await countMessage(em, ctx.marketplace, ctx.user.id, now);
    return writeMessage(em, ctx.marketplace.id, conversation, ctx.user.id, input.body, now);
  });
}
