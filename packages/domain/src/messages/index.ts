/** Entry point of the messages module: what other modules, the flows and the HTTP contract may use. Everything else in messages/ is private. */
export { conversationWithMessages, replyAsSupport, supportInbox } from './commands/support.js';
export { NOTICE_INTERVAL_MS, type NoticeMailer, notifyMessagesTask, registerNoticeMailer } from './commands/write-message.js';
export { toConsoleConversationBody, toMessageBody } from './messages.mapper.js';
export { ZMessageBody } from './messages.schema.js';
