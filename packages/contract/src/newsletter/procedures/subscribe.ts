import { z } from 'zod';
import { keyProcedure } from '../../trpc.js';
import { subscribe as subscribeCommand } from '@hm/domain/newsletter';
import { ZSubscribeInput } from '@hm/domain/newsletter';

export const subscribe = keyProcedure
  .meta({
    auth: 'key',
    successStatus: 202,
    requestExample: { email: 'alice@example.com', first_name: 'Alice', locale: 'en', source: 'footer' },
    openapi: {
      operationId: 'subscribeToNewsletter',
      method: 'POST',
      path: '/newsletter/subscribers',
      tags: ['Newsletter'],
      summary: 'Sign up for the newsletter',
      description:
        "Always 202 for a valid address, whether new or already signed up: a repeat changes nothing (not the name, language or source) and the answer never tells the two apart. New addresses are added to the marketplace's contact list shortly after, in the background. A bad address is 422 at `body.email`.",
    },
  })
  .input(ZSubscribeInput)
  .output(z.void())
  .mutation(async ({ ctx, input }) => {
    await subscribeCommand(ctx, input);
  });
