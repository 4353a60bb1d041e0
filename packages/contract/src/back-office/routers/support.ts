import { z } from 'zod';
import { conversationWithMessages, toConsoleConversationBody, toMessageBody } from '@hm/domain/messages';
import { router } from '../../trpc.js';
import { ZReplyBody, ZSupportList, listSupportOp, perform, replySupportOp } from '../../console/operations.js';
import { operatorProcedure } from '../procedure.js';
import { openapi, read, write } from '../meta.js';
import { ZAnyObject } from '../schemas.js';

export const support = router({
  list: operatorProcedure
    .meta(read(openapi('GET', '/support', 'Support', 'Support inbox', 'Support conversations, latest message first; `unanswered=true`: those waiting for the team.')))
    .input(z.strictObject({ unanswered: z.stringbool().meta({ description: ZSupportList.unanswered.description, override: { type: 'boolean' } }).default(false), limit: z.coerce.number().int().min(1).max(1000).default(100).describe('1..1000, default 100.') }))
    .output(z.object({ items: z.array(ZAnyObject) }))
    .query(({ ctx, input }) => perform(listSupportOp, ctx.scope, input)),
});

export const conversations = router({
  get: operatorProcedure
    .meta(read(openapi('GET', '/conversations/{id}', 'Support', 'A conversation', 'Any kind, with its messages, oldest first.')))
    .input(z.strictObject({ id: z.uuid(), after: z.coerce.number().int().min(0).default(0), limit: z.coerce.number().int().min(1).max(1000).default(200) }))
    .output(z.object({ conversation: ZAnyObject, messages: z.array(ZAnyObject) }))
    .query(async ({ ctx, input }) => {
      const { conversation, messages } = await conversationWithMessages(ctx, input.id, input, ctx.scope.marketplace.id);
      return { conversation: toConsoleConversationBody(conversation), messages: messages.map(toMessageBody) };
    }),
  reply: operatorProcedure
    .meta(write(openapi('POST', '/conversations/{id}/messages', 'Support', 'Reply as the marketplace', 'Support conversations only; the user gets a notice email.'), { successStatus: 201, problems: [403], requestExample: { body: 'Thanks, we are on it.' } }))
    .input(z.strictObject({ id: z.uuid(), body: ZReplyBody }))
    .output(z.object({ conversation: ZAnyObject, message: ZAnyObject }))
    .mutation(({ ctx, input }) => perform(replySupportOp, ctx.scope, { conversation: input.id, body: input.body })),
});
