import { queueMessageNotice } from '../emails/index.js';
import { registerNoticeMailer } from '../messages/index.js';

/**
 * Message notices: a message written tells its recipient by email, at most once per conversation
 * and recipient every 15 minutes (messages.NOTICE_INTERVAL_MS), only while something is unread.
 *
 *   write    POST /v1/me/conversations, POST /v1/me/conversations/{id}/messages, the console's support reply
 *            → messages.writeMessage (the conversation locked): the message stored, and
 *            → addJob `notify-messages` (key `notify-messages:<conversation>:<side>`), due now, or 15
 *              minutes after the recipient's last notice; messages arriving meanwhile share the job
 *   notice   the `notify-messages` job (messages): re-checks what is unread and the 15 minutes (early:
 *            scheduled again; nothing unread, recipient gone or blocked: no notice), then
 *            → emails.queueMessageNotice (below; → addJob `send-email`) and marks the side notified
 *   read     GET /v1/me/conversations/{id}/messages marks them read: a later notice job sends nothing
 */
registerNoticeMailer((em, marketplace, user, conversationId, about) => queueMessageNotice(em, marketplace, user, conversationId, about));
