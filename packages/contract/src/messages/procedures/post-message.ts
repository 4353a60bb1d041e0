import { sessionProcedure } from '../../trpc.js';
import { postMessage as postMessageCommand } from '@hm/domain/messages';
import { toMessageBody } from '@hm/domain/messages';
import { ZMessage, ZPostMessage } from '@hm/domain/messages';
import { TAG } from './tag.js';

export const postMessage = sessionProcedure
  .meta({
    auth: 'session',
    successStatus: 201,
    problems: [429],
    requestExample: { body: 'Could I pick it up on Saturday?' },
    openapi: {
      operationId: 'sendMessage',
      method: 'POST',
      path: '/me/conversations/{id}/messages',
      tags: [TAG],
      summary: 'Write in a conversation',
      description: 'For its two parties (anyone else: 404). The other party gets a notice email (at most one per conversation every 15 minutes, none when they have read it meanwhile). A user may write at most the marketplace\'s `messages_per_minute` messages a minute (default 60, every conversation together): over it 429 with `Retry-After`.',
    },
  })
  .input(ZPostMessage)
  .output(ZMessage)
  .mutation(async ({ ctx, input }) => toMessageBody(await postMessageCommand(ctx, input)));
