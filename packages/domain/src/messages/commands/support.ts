import { MarketplaceSchema } from '@hm/db/entities';
import { crossTenantEm, tenantEm, type EntityManager } from '@hm/db/orm';
import type { Context } from '../../core/context.js';
import { NotFoundError, ValidationError } from '../../core/errors.js';
import { conversationMarketplace, countSupportConversations, findConversation, listMessages, listSupportConversations, type ConversationRow, type MessageRow } from '../messages.queries.js';
import { writeMessage } from './write-message.js';

/** The operators' side of messages (console): the support inbox, replies as the marketplace, reading any conversation. */

/** A conversation's marketplace and an entity manager scoped to it, from the conversation id alone. */
export async function byConversation(ctx: Context, id: string, within?: string) {
  const marketplaceId = await conversationMarketplace(crossTenantEm(ctx.orm), id);
  if (!marketplaceId || (within !== undefined && marketplaceId !== within)) throw new NotFoundError('This conversation');
  const marketplace = await crossTenantEm(ctx.orm).findOneOrFail(MarketplaceSchema, { id: marketplaceId });
  return { marketplace, em: tenantEm(ctx.orm, marketplace.id) };
}

/** `support list`: the marketplace's support conversations, latest first (optionally only those waiting for an answer). */
export function supportInbox(em: EntityManager, opts: { unanswered: boolean; limit: number }): Promise<ConversationRow[]> {
  return listSupportConversations(em, opts);
}

/** How many conversations the support inbox holds (`unanswered`: the ones waiting for the team). */
export function supportInboxCount(em: EntityManager, opts: { unanswered: boolean }): Promise<number> {
  return countSupportConversations(em, opts);
}

/** `support reply`: a message from the marketplace (`from_marketplace: true`, no sender) in a support conversation. */
export async function replyAsSupport(ctx: Context, id: string, body: string, within?: string): Promise<{ conversation: ConversationRow; message: MessageRow }> {
  const { marketplace, em } = await byConversation(ctx, id, within);
  return em.transactional(async (tx) => {
    const conversation = (await findConversation(tx, id, { lock: true }))!;
    if (conversation.kind !== 'support') throw new ValidationError([{ location: 'conversation', message: `This is a ${conversation.kind} conversation between users; support answers only support conversations.`, value: id }]);
    const message = await writeMessage(tx, marketplace.id, conversation, null, body, ctx.clock.now());
    return { conversation: (await findConversation(tx, id))!, message };
  });
}

/** `conversations get`: any conversation of any kind with its messages, oldest first (the team reads disputes too). */
export async function conversationWithMessages(ctx: Context, id: string, page: { after: number; limit: number }, within?: string): Promise<{ conversation: ConversationRow; messages: MessageRow[] }> {
  const { em } = await byConversation(ctx, id, within);
  const conversation = (await findConversation(em, id))!;
  return { conversation, messages: await listMessages(em, id, page) };
}
