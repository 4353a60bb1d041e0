import { z } from 'zod';
import { sessionProcedure } from '../../trpc.js';
import { startConversation as startConversationCommand } from '@hm/domain/messages';
import { toConversationBody, toMessageBody } from '@hm/domain/messages';
import { ZConversation, ZMessage, ZStartConversation } from '@hm/domain/messages';
import { TAG } from './tag.js';

export const startConversation = sessionProcedure
  .meta({
    auth: 'session',
    successStatus: 201,
    problems: [429],
    requestExample: { listing_id: '0192d5e8-7b1c-7a3e-9f21-5c4b3a2d1e0f', body: 'Is it still for sale?' },
    openapi: {
      operationId: 'startConversation',
      method: 'POST',
      path: '/me/conversations',
      tags: [TAG],
      summary: 'Write about a listing, an order, or to support',
      description:
        "Give exactly one of `listing_id` (to its seller), `order_id` (to the order's other party) or `support: true` (to the marketplace). Continues the existing conversation for the same pair and subject if there is one. A listing must be on sale, unless you already have a conversation or an order about it (404 otherwise, like a listing not on sale); your own listing is 422 at `body.listing_id`. An order must be yours, as buyer or seller (404 otherwise). The recipient gets a notice email (at most one per conversation every 15 minutes). A user may open at most the marketplace's `new_conversations_per_hour` new conversations an hour (default 20, support included; continuing one is not opening one), and the message counts toward `messages_per_minute` (default 60): over either, 429 with `Retry-After`.",
    },
  })
  .input(ZStartConversation)
  .output(z.object({ conversation: ZConversation, message: ZMessage }).meta({ id: 'StartedConversation' }))
  .mutation(async ({ ctx, input }) => {
    const { conversation, message } = await startConversationCommand(ctx, input);
    return { conversation: toConversationBody(conversation, ctx.publicUrl), message: toMessageBody(message) };
  });
