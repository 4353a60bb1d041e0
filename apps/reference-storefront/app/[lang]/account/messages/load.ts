import 'server-only';
import { safe } from '@trpc/client';
import type { Api, ApiOutputs } from '../../../../lib/api';
import type { Messages } from '../../../../lib/messages';

export type Conversation = ApiOutputs['me']['conversations']['list']['items'][number];
export type Message = ApiOutputs['me']['conversations']['messages']['items'][number];

const MESSAGES_PAGE = 200;
const CONVERSATIONS_PAGE = 100;

/**
 * A conversation's whole thread, oldest first, page after page (`after` = the last id seen), which
 * also marks it read for the viewer. Throws the API's error (404 for anyone but its two parties).
 */
export async function loadThread(client: Api, id: string): Promise<Message[]> {
  const all: Message[] = [];
  for (;;) {
    const { items } = await client.me.conversations.messages.query({ id, after: all.at(-1)?.id ?? 0, limit: MESSAGES_PAGE });
    all.push(...items);
    if (items.length < MESSAGES_PAGE) return all;
  }
}

/**
 * A conversation of the user's (by id, or the one about an order): the API lists conversations
 * only, so it is looked up in the list, latest first, up to 1000 conversations back.
 */
export async function findConversation(client: Api, match: { id: string } | { orderId: string }): Promise<Conversation | undefined> {
  const wanted = (c: Conversation) => ('id' in match ? c.id === match.id : c.kind === 'order' && c.order_id === match.orderId);
  for (let offset = 0; offset < 10 * CONVERSATIONS_PAGE; offset += CONVERSATIONS_PAGE) {
    const [page] = await safe(client.me.conversations.list.query({ limit: CONVERSATIONS_PAGE, offset }));
    const found = page?.items.find(wanted);
    if (found || !page || page.items.length < CONVERSATIONS_PAGE) return found;
  }
  return undefined;
}

/**
 * What a conversation is about, in words: the listing's title (an order's: "Order: <title>"), or
 * the kind when the API names none; support threads are "Support".
 */
export function conversationTitle(c: Conversation, t: Messages['inbox']): string {
  if (c.kind === 'support' || !c.listing_title) return t.kinds[c.kind];
  return c.kind === 'order' ? t.orderOf(c.listing_title) : c.listing_title;
}
