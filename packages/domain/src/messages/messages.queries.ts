import type { EntityManager } from '@hm/db/orm';
import { crossTenantSql, tenantSql } from '@hm/db/sql';
import type { ConversationKind } from './messages.schema.js';

/**
 * `conversations`, `messages` and `message_counters` (no entities: a conversation is read with its
 * unread count, and a message id comes from the counter, both better said in SQL).
 */

export interface ConversationRow {
  id: string;
  kind: ConversationKind;
  user_a: string;
  user_b: string | null;
  listing_id: string | null;
  order_id: string | null;
  last_message: string | null;
  last_message_at: Date | string;
  last_from_marketplace: boolean;
  a_read_id: string;
  b_read_id: string;
  a_notified_at: Date | string | null;
  b_notified_at: Date | string | null;
}

export interface MessageRow {
  id: string;
  body: string;
  at: Date;
  from_marketplace: boolean;
  sender_id: string | null;
}

/**
 * A conversation with the number of messages to `reader` (a party's user id) it has not read yet,
 * and what a list needs to name it: the listing's title and first ready photo (an order's too: its
 * listing), and the other party's display name.
 */
export type ConversationView = ConversationRow & { unread: number; about_title: string | null; about_image_id: string | null; other_name: string | null; reader?: string };

export type Side = 'a' | 'b';

/** The subject a new conversation is about, and its parties. */
export interface NewConversation {
  kind: ConversationKind;
  userA: string;
  userB: string | null;
  listingId: string | null;
  orderId: string | null;
}

const COLUMNS = `c.id, c.kind, c.user_a, c.user_b, c.listing_id, c.order_id, c.last_message, c.last_message_at, c.last_from_marketplace,
  c.a_read_id::text, c.b_read_id::text, c.a_notified_at, c.b_notified_at`;

/** Messages to the reader past their read mark: written by someone else (the other party, or support). */
const UNREAD = `(select count(*)::int from messages m where m.marketplace_id = c.marketplace_id and m.conversation_id = c.id
    and m.id > (case when c.user_a = ? then c.a_read_id else c.b_read_id end) and m.sender_id is distinct from ?)`;

/** What names a conversation for `reader` (ConversationView); binds the reader twice. */
const ABOUT = `(select l.title from listings l where l.marketplace_id = c.marketplace_id and l.id = c.listing_id) as about_title,
  (select i.id::text from listing_images i where i.marketplace_id = c.marketplace_id and i.listing_id = c.listing_id and i.status = 'ready' order by i.position, i.created_at limit 1) as about_image_id,
  ?::uuid as reader,
  (select u.display_name from users u where u.marketplace_id = c.marketplace_id and u.id = (case when c.user_a = ? then c.user_b else c.user_a end)) as other_name`;

/**
 * The conversation for this pair and subject, made if there is none (the partial unique indexes
 * decide "the same": a listing and its asker, an order, a user's support), locked for the rest of
 * the transaction so the message that opens or continues it is written in turn.
 */
export async function openConversation(em: EntityManager, id: string, c: NewConversation, at: Date): Promise<ConversationRow> {
  const sql = tenantSql(em);
  await sql`insert into conversations (id, marketplace_id, kind, user_a, user_b, listing_id, order_id, last_message_at, created_at)
     values (${id}, ${sql.marketplace}, ${c.kind}, ${c.userA}, ${c.userB}, ${c.listingId}, ${c.orderId}, ${at}, ${at}) on conflict do nothing`;
  const subject =
    c.kind === 'listing' ? { text: 'c.listing_id = ? and c.user_a = ?', values: [c.listingId, c.userA] } : c.kind === 'order' ? { text: 'c.order_id = ?', values: [c.orderId] } : { text: 'c.user_a = ?', values: [c.userA] };
  const [row] = await sql.query<ConversationRow>(`select ${COLUMNS} from conversations c where c.marketplace_id = ? and c.kind = ? and ${subject.text} for update`, [sql.marketplace, c.kind, ...subject.values]);
  return row!;
}

/** An existing conversation about a listing between its asker and the listing's seller (undefined when there is none). */
export async function findListingConversation(em: EntityManager, listingId: string, userA: string): Promise<ConversationRow | undefined> {
  const sql = tenantSql(em);
  const [row] = await sql.query<ConversationRow>(`select ${COLUMNS} from conversations c where c.marketplace_id = ? and c.kind = 'listing' and c.listing_id = ? and c.user_a = ?`, [sql.marketplace, listingId, userA]);
  return row;
}

/** A conversation by id, locked when asked (a message is about to be written to it). */
export async function findConversation(em: EntityManager, id: string, opts: { lock?: boolean } = {}): Promise<ConversationRow | undefined> {
  const sql = tenantSql(em);
  const [row] = await sql.query<ConversationRow>(`select ${COLUMNS} from conversations c where c.marketplace_id = ? and c.id = ?${opts.lock ? ' for update' : ''}`, [sql.marketplace, id]);
  return row;
}

/** One conversation as `reader` sees it, with their unread count. */
export async function viewConversation(em: EntityManager, id: string, reader: string): Promise<ConversationView> {
  const sql = tenantSql(em);
  const [row] = await sql.query<ConversationView>(`select ${COLUMNS}, ${UNREAD} as unread, ${ABOUT} from conversations c where c.marketplace_id = ? and c.id = ?`, [reader, reader, reader, reader, sql.marketplace, id]);
  return row!;
}

/** GET /v1/me/conversations: the user's conversations (as either party), latest message first, offset-paged. */
export function listConversations(em: EntityManager, userId: string, page: { limit: number; offset: number }): Promise<ConversationView[]> {
  const sql = tenantSql(em);
  return sql.query<ConversationView>(
    `select ${COLUMNS}, ${UNREAD} as unread, ${ABOUT} from conversations c
      where c.marketplace_id = ? and (c.user_a = ? or c.user_b = ?)
      order by c.last_message_at desc, c.id desc limit ? offset ?`,
    [userId, userId, userId, userId, sql.marketplace, userId, userId, page.limit, page.offset],
  );
}

/** The console's support inbox: support conversations, latest first; `unanswered`: whose last message is the user's. */
const supportWhere = (unanswered: boolean) => `c.marketplace_id = ? and c.kind = 'support'${unanswered ? ' and not c.last_from_marketplace' : ''}`;

export function listSupportConversations(em: EntityManager, opts: { unanswered: boolean; limit: number }): Promise<ConversationRow[]> {
  const sql = tenantSql(em);
  return sql.query<ConversationRow>(
    `select ${COLUMNS} from conversations c
      where ${supportWhere(opts.unanswered)}
      order by c.last_message_at desc, c.id desc limit ?`,
    [sql.marketplace, opts.limit],
  );
}

/** How many support conversations (`unanswered`: waiting for the team) the inbox holds in all. */
export async function countSupportConversations(em: EntityManager, opts: { unanswered: boolean }): Promise<number> {
  const sql = tenantSql(em);
  const [row] = await sql.query<{ n: number }>(`select count(*)::int as n from conversations c where ${supportWhere(opts.unanswered)}`, [sql.marketplace]);
  return row?.n ?? 0;
}

/** The marketplace of a conversation, found from its id alone (operators pass ids). */
export async function conversationMarketplace(em: EntityManager, id: string): Promise<string | undefined> {
  const [row] = await crossTenantSql(em)<{ marketplace_id: string }>`select marketplace_id from conversations where id = ${id}`;
  return row?.marketplace_id;
}

/**
 * Writes a message with the marketplace's next message id and makes it the conversation's last.
 * The counter's row stays locked until commit, so ids are gapless in commit order (a rolled-back
 * message leaves a gap, never a duplicate). The caller holds the conversation's lock (taken first,
 * always, so two writers never wait on each other in opposite orders).
 */
export async function insertMessage(em: EntityManager, conversationId: string, m: { senderId: string | null; body: string; at: Date }): Promise<MessageRow> {
  const sql = tenantSql(em);
  const [{ id }] = (await sql<{ id: string }>`insert into message_counters (marketplace_id, last_id) values (${sql.marketplace}, 1)
     on conflict (marketplace_id) do update set last_id = message_counters.last_id + 1 returning last_id::text as id`) as [{ id: string }];
  await sql`insert into messages (marketplace_id, id, conversation_id, sender_id, from_marketplace, body, at)
     values (${sql.marketplace}, ${id}, ${conversationId}, ${m.senderId}, ${m.senderId === null}, ${m.body}, ${m.at})`;
  await sql`update conversations set last_message = ${m.body}, last_message_at = ${m.at}, last_from_marketplace = ${m.senderId === null}
     where marketplace_id = ${sql.marketplace} and id = ${conversationId}`;
  return { id, body: m.body, at: m.at, from_marketplace: m.senderId === null, sender_id: m.senderId };
}

/**
 * A conversation's messages after a message id, oldest first. The order is the bigint column's
 * (`m.id`, qualified): an unqualified `order by id` would name the select list's `id::text` and sort
 * 1, 10, 100, 2, ….
 */
export function listMessages(em: EntityManager, conversationId: string, page: { after: number; limit: number }): Promise<MessageRow[]> {
  const sql = tenantSql(em);
  return sql<MessageRow>`select m.id::text as id, m.body, m.at, m.from_marketplace, m.sender_id from messages m
     where m.marketplace_id = ${sql.marketplace} and m.conversation_id = ${conversationId} and m.id > ${page.after}
     order by m.id limit ${page.limit}`;
}

/** Moves a party's read mark forward to `upTo` (never back: an older page read later changes nothing). */
export async function markRead(em: EntityManager, conversationId: string, side: Side, upTo: string): Promise<void> {
  const sql = tenantSql(em);
  const column = side === 'a' ? 'a_read_id' : 'b_read_id';
  await sql.query(`update conversations set ${column} = greatest(${column}, ?::bigint) where marketplace_id = ? and id = ?`, [upTo, sql.marketplace, conversationId]);
}

/** How many messages to a party are unread, and when the party was last sent a notice (the notice job's check). */
export async function unreadFor(em: EntityManager, conversationId: string, side: Side): Promise<{ user_id: string | null; unread: number; notified_at: Date | string | null } | undefined> {
  const sql = tenantSql(em);
  const user = side === 'a' ? 'c.user_a' : 'c.user_b';
  const [row] = await sql.query<{ user_id: string | null; unread: number; notified_at: Date | string | null }>(
    `select ${user} as user_id, c.${side}_notified_at as notified_at,
       (select count(*)::int from messages m where m.marketplace_id = c.marketplace_id and m.conversation_id = c.id
          and m.id > c.${side}_read_id and m.sender_id is distinct from ${user}) as unread
       from conversations c where c.marketplace_id = ? and c.id = ? for update`,
    [sql.marketplace, conversationId],
  );
  return row;
}

/** Records that a party was sent a notice now. */
export async function markNotified(em: EntityManager, conversationId: string, side: Side, at: Date): Promise<void> {
  const sql = tenantSql(em);
  await sql.query(`update conversations set ${side}_notified_at = ? where marketplace_id = ? and id = ?`, [at, sql.marketplace, conversationId]);
}
