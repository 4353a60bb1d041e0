import { router } from '../trpc.js';
import { listConversations } from './procedures/list-conversations.js';
import { listMessages } from './procedures/list-messages.js';
import { postMessage } from './procedures/post-message.js';
import { startConversation } from './procedures/start-conversation.js';

/** /v1/me/conversations… (messages between buyers, sellers and support). */
export const myConversationsRouter = router({
  list: listConversations,
  start: startConversation,
  messages: listMessages,
  post: postMessage,
});
