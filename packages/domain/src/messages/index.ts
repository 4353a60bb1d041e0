/** Entry point of the messages module: what other modules, the flows and the HTTP contract may use. Everything else in messages/ is private. */
export { myConversations, postMessage, readMessages, startConversation } from './commands/conversations.js';
export { byConversation, conversationWithMessages, replyAsSupport, supportInbox, supportInboxCount } from './commands/support.js';
export { toConsoleConversationBody, toConversationBody, toMessageBody } from './messages.mapper.js';
export { ZConversation, ZListConversations, ZListMessages, ZMessage, ZMessageBody, ZPostMessage, ZStartConversation } from './messages.schema.js';
export { NOTICE_INTERVAL_MS, type NoticeMailer, notifyMessagesTask, registerNoticeMailer } from './commands/write-message.js';
