import { z } from 'zod';
import { consoleProcedure } from '../../trpc.js';
import { conversationWithMessages, replyAsSupport, supportInbox } from '@hm/domain/messages';
import { toConsoleConversationBody, toMessageBody } from '@hm/domain/messages';
import { ZMessageBody } from '@hm/domain/messages';
import { ZMarketplaceRef, scoped } from '../console-scope.js';

/** The support inbox (`support list`, `support reply`) and reading a conversation (`conversations get`). */

export const listSupportProcedure = consoleProcedure
  .input(
    ZMarketplaceRef.extend({
      unanswered: z.boolean().default(false).describe('Only conversations whose last message is the user’s (waiting for support).'),
      limit: z.number().int().min(1).max(1000).default(100).describe('At most this many (1..1000, default 100).'),
    }).describe("The marketplace's support conversations, latest message first."),
  )
  .query(async ({ ctx, input }) => {
    const { em } = await scoped(ctx, input.marketplace);
    return { items: (await supportInbox(em, input)).map(toConsoleConversationBody) };
  });

export const replySupportProcedure = consoleProcedure
  .input(
    z
      .strictObject({ conversation: z.uuid().describe('Support conversation id.'), body: ZMessageBody.describe('The answer (1..5000 characters).') })
      .describe('Answer a support conversation as the marketplace (`from_marketplace: true`, no sender); the user gets a notice email.'),
  )
  .mutation(async ({ ctx, input }) => {
    const { conversation, message } = await replyAsSupport(ctx, input.conversation, input.body);
    return { conversation: toConsoleConversationBody(conversation), message: toMessageBody(message) };
  });

export const getConversationProcedure = consoleProcedure
  .input(
    z
      .strictObject({
        id: z.uuid().describe('Conversation id.'),
        after: z.number().int().min(0).default(0).describe('Only messages with a greater id (default 0: from the start).'),
        limit: z.number().int().min(1).max(1000).default(200).describe('At most this many messages (1..1000, default 200).'),
      })
      .describe('A conversation of any kind with its messages, oldest first.'),
  )
  .query(async ({ ctx, input }) => {
    const { conversation, messages } = await conversationWithMessages(ctx, input.id, input);
    return { conversation: toConsoleConversationBody(conversation), messages: messages.map(toMessageBody) };
  });
