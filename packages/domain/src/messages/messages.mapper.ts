import type { z } from 'zod';
import { imageUrls } from '../listings/index.js';
import type { ConversationRow, ConversationView, MessageRow } from './messages.queries.js';
import type { ZConversation, ZMessage } from './messages.schema.js';

/** Rows → the spec's Conversation and Message bodies, in one place. */

export function toMessageBody(m: MessageRow): z.output<typeof ZMessage> {
  return { id: Number(m.id), body: m.body, at: new Date(m.at).toISOString(), from_marketplace: m.from_marketplace, ...(m.sender_id ? { sender_id: m.sender_id } : {}) };
}

/** `publicUrl` (the API's, for photo URLs): given for a party's view, whose row says what the conversation is about. */
export function toConversationBody(c: ConversationView, publicUrl?: string): z.output<typeof ZConversation> {
  const other = c.kind === 'support' ? null : c.user_a === c.reader ? c.user_b : c.user_a;
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
    ...(c.about_title ? { listing_title: c.about_title } : {}),
    ...(c.about_image_id && publicUrl ? { listing_image: { id: c.about_image_id, urls: imageUrls(publicUrl, c.about_image_id) } } : {}),
    ...(other && c.reader ? { other_party: { id: other, display_name: c.other_name ?? '' } } : {}),
  };
}

/** The console's view: no caller, so no `unread`; `answered` says whether the marketplace or the other party wrote last. */
export function toConsoleConversationBody(c: ConversationRow) {
  const { unread: _unread, ...body } = toConversationBody({ ...c, unread: 0, about_title: null, about_image_id: null, other_name: null });
  return { ...body, last_from_marketplace: c.last_from_marketplace };
}
