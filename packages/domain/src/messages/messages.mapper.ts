import type { z } from 'zod';
import type { ConversationRow, ConversationView, MessageRow } from './messages.queries.js';
import type { ZConversation, ZMessage } from './messages.schema.js';

/** Rows → the spec's Conversation and Message bodies, in one place. */

export function toMessageBody(m: MessageRow): z.output<typeof ZMessage> {
  return { id: Number(m.id), body: m.body, at: new Date(m.at).toISOString(), from_marketplace: m.from_marketplace, ...(m.sender_id ? { sender_id: m.sender_id } : {}) };
}

export function toConversationBody(c: ConversationView): z.output<typeof ZConversation> {
  return {
    id: c.id,
    kind: c.kind,
    user_a: c.user_a,
    ...(c.user_b ? { user_b: c.user_b } : {}),
    ...(c.listing_id ? { listing_id: c.listing_id } : {}),
    ...(c.order_id ? { order_id: c.order_id } : {}),
    ...(c.last_message !== null ? { last_message: c.last_message } : {}),
    last_message_at: new Date(c.last_message_at).toISOString(),
    unread: c.unread,
  };
}

/** The console's view: no caller, so no `unread`; `answered` says whether the marketplace or the other party wrote last. */
export function toConsoleConversationBody(c: ConversationRow) {
  const { unread: _unread, ...body } = toConversationBody({ ...c, unread: 0 });
  return { ...body, last_from_marketplace: c.last_from_marketplace };
}
