import { z } from 'zod';
import { sessionProcedure } from '../../trpc.js';
import { readMessages } from '@hm/domain/messages';
import { toMessageBody } from '@hm/domain/messages';
import { ZListMessages, ZMessage } from '@hm/domain/messages';
import { TAG } from './tag.js';

export const listMessages = sessionProcedure
  .meta({
    auth: 'session',
    openapi: {
      operationId: 'listConversationMessages',
      method: 'GET',
      path: '/me/conversations/{id}/messages',
      tags: [TAG],
      summary: "A conversation's messages",
      description: 'Oldest first, after the message id `after` (0: from the start); a page shorter than `limit` is the last: pass its last id as `after` for the next. Marks what it returns as read for you (the conversation\'s `unread` drops). Only the two parties can read a conversation; anyone else gets 404.',
    },
  })
  .input(ZListMessages)
  .output(z.object({ items: z.array(ZMessage) }).meta({ id: 'MessageList' }))
  .query(async ({ ctx, input }) => ({ items: (await readMessages(ctx, input)).map(toMessageBody) }));
