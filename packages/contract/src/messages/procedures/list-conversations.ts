import { z } from 'zod';
import { sessionProcedure } from '../../trpc.js';
import { myConversations } from '@hm/domain/messages';
import { toConversationBody } from '@hm/domain/messages';
import { ZConversation, ZListConversations } from '@hm/domain/messages';
import { TAG } from './tag.js';

export const listConversations = sessionProcedure
  .meta({
    auth: 'session',
    openapi: {
      operationId: 'listMyConversations',
      method: 'GET',
      path: '/me/conversations',
      tags: [TAG],
      summary: "The signed-in user's conversations",
      description: 'As either party (asking about a listing, buyer or seller of an order, with support), latest message first, each with `unread`: the messages to you not yet returned to you by GET …/messages. Offset-paged: a page shorter than `limit` is the last.',
    },
  })
  .input(ZListConversations)
  .output(z.object({ items: z.array(ZConversation) }).meta({ id: 'ConversationList' }))
  .query(async ({ ctx, input }) => ({ items: (await myConversations(ctx, input)).map((c) => toConversationBody(c, ctx.publicUrl)) }));
