import { z } from 'zod';
import { consoleProcedure } from '../../trpc.js';
import { conversationWithMessages, toConsoleConversationBody, toMessageBody } from '@hm/domain/messages';
import { ZMarketplaceRef, byConversationId, cliScope, scoped } from '../console-scope.js';
import { ZReplyBody, ZSupportList, listSupportOp, perform, replySupportOp } from '../operations.js';

/** The support inbox (`support list`, `support reply`) and reading a conversation (`conversations get`). */

export const listSupportProcedure = consoleProcedure
  .input(ZMarketplaceRef.extend(ZSupportList).describe("The marketplace's support conversations, latest message first."))
  .query(async ({ ctx, input }) => perform(listSupportOp, cliScope(ctx, await scoped(ctx, input.marketplace)), input));

export const replySupportProcedure = consoleProcedure
  .input(
    z
      .strictObject({ conversation: z.uuid().describe('Support conversation id.'), body: ZReplyBody })
      .describe('Answer a support conversation as the marketplace (`from_marketplace: true`, no sender); the user gets a notice email.'),
  )
  .mutation(async ({ ctx, input }) => perform(replySupportOp, cliScope(ctx, await byConversationId(ctx, input.conversation)), input));

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
