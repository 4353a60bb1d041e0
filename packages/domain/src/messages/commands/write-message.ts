import { z } from 'zod';
import { MarketplaceSchema, UserSchema, type Marketplace, type User } from '@hm/db/entities';
import { tenantEm, type EntityManager } from '@hm/db/orm';
import { appendEvent } from '../../core/events.js';
import { addJob, jobKey } from '../../core/jobs.js';
import { toMessageBody } from '../messages.mapper.js';
import { defineTask, type TaskContext } from '../../core/tasks.js';
import { insertMessage, markNotified, unreadFor, viewConversation, type ConversationRow, type MessageRow, type Side } from '../messages.queries.js';

/**
 * Writing a message and the notice email it may cause. The recipient of a message is the other
 * party (for a support conversation: the user when support writes, nobody when the user writes, as
 * operators read the console's inbox). A notice is a job per conversation and recipient (job key
 * `notify-messages:<conversation>:<side>`), so messages arriving together share one email; it runs
 * at once when the recipient had no notice in the last 15 minutes, else when those 15 minutes end,
 * and then sends only when something is still unread. The email itself is the emails module's:
 * flows/message-notices.ts registers how a notice is mailed.
 */

/** Queues the notice email of a conversation to its recipient, in the notice job's transaction. */
/** What a notice says of its conversation: who wrote and what about, or that support wrote. */
export interface NoticeAbout {
  support?: boolean;
  sender?: string;
  about?: string;
}
export type NoticeMailer = (em: EntityManager, marketplace: Marketplace, user: User, conversationId: string, about: NoticeAbout) => Promise<void>;
let mailNotice: NoticeMailer | undefined;

/** flows/message-notices.ts says how a notice is mailed (the task list loads it). */
export function registerNoticeMailer(mailer: NoticeMailer): void {
  mailNotice = mailer;
}

/** At most one notice email per conversation and recipient in this long (docs/decisions.md). */
export const NOTICE_INTERVAL_MS = 15 * 60_000;

const ZNoticePayload = z.object({ marketplace_id: z.uuid(), conversation_id: z.uuid(), side: z.enum(['a', 'b']) });

export const notifyMessagesTask = defineTask({
  name: 'notify-messages',
  payload: ZNoticePayload,
  timer: true,
  run: (p, ctx) => sendNotice(ctx, p.marketplace_id, p.conversation_id, p.side),
});

const noticeKey = (conversationId: string, side: Side) => jobKey(notifyMessagesTask, `${conversationId}:${side}`);

/** When a party may next be sent a notice: now, or 15 minutes after the last one. */
function noticeDue(notifiedAt: Date | string | null, now: Date): Date {
  // raw rows may carry timestamps as strings: read both
  const next = notifiedAt ? new Date(notifiedAt).getTime() + NOTICE_INTERVAL_MS : 0;
  return new Date(Math.max(next, now.getTime()));
}

async function scheduleNotice(em: EntityManager, marketplaceId: string, c: ConversationRow, side: Side, now: Date): Promise<void> {
  const runAt = noticeDue(side === 'a' ? c.a_notified_at : c.b_notified_at, now);
  await addJob(em, notifyMessagesTask, { marketplace_id: marketplaceId, conversation_id: c.id, side }, { jobKey: noticeKey(c.id, side), runAt });
}

/** Who receives a message written by `senderId` (null: the marketplace's support). */
function recipientSide(c: ConversationRow, senderId: string | null): Side | undefined {
  if (senderId === null || senderId === c.user_b) return 'a';
  return c.user_b ? 'b' : undefined;
}

/**
 * Writes a message to a conversation whose lock the caller holds (inside its transaction) and
 * schedules the recipient's notice in the same transaction.
 */
export async function writeMessage(em: EntityManager, marketplaceId: string, c: ConversationRow, senderId: string | null, body: string, now: Date): Promise<MessageRow> {
  const message = await insertMessage(em, c.id, { senderId, body, at: now });
  // every message, a user's or support's, is written here: its one message.created
  await appendEvent(em, { type: 'message.created', object: { ...toMessageBody(message), conversation_id: c.id }, at: now });
  const to = recipientSide(c, senderId);
  if (to) await scheduleNotice(em, marketplaceId, c, to, now);
  return message;
}

/** The notice job: re-checks what is unread and the 15 minutes, so a late, early or repeated run sends nothing twice. */
function sendNotice(ctx: TaskContext, marketplaceId: string, conversationId: string, side: Side): Promise<string> {
  // never mark a notice sent without its email: the job fails and retries instead
  const mail = mailNotice;
  if (!mail) return Promise.reject(new Error('No message notice mailer registered: load flows/message-notices.ts (the task list does).'));
  return tenantEm(ctx.orm, marketplaceId).transactional(async (em) => {
    const now = ctx.clock.now();
    const state = await unreadFor(em, conversationId, side);
    if (!state?.user_id) return `conversation ${conversationId}: no such conversation or party`;
    if (state.unread === 0) return `conversation ${conversationId}: nothing unread for ${side}, no notice`;
    const due = noticeDue(state.notified_at, now);
    if (due > now) {
      await addJob(em, notifyMessagesTask, { marketplace_id: marketplaceId, conversation_id: conversationId, side }, { jobKey: noticeKey(conversationId, side), runAt: due });
      return `conversation ${conversationId}: notice to ${side} waits until ${due.toISOString()}`;
    }
    const [marketplace, user] = await Promise.all([em.findOneOrFail(MarketplaceSchema, { id: marketplaceId }), em.findOne(UserSchema, { id: state.user_id })]);
    if (!user || user.blockedAt) return `conversation ${conversationId}: recipient gone or blocked, no notice`;
    // the notice names who wrote and about what (the listing, or the order's listing)
    const view = await viewConversation(em, conversationId, user.id);
    await mail(em, marketplace, user, conversationId, view.kind === 'support' ? { support: true } : { sender: view.other_name || undefined, about: view.about_title ?? undefined });
    await markNotified(em, conversationId, side, now);
    return `conversation ${conversationId}: notice to user ${user.id} (${state.unread} unread)`;
  });
}
