import { keyProcedure } from '../../trpc.js';
import { EVENT_EXAMPLES, readEvents, ZEventList, ZListEvents } from '@hm/domain/webhooks';

export const listEvents = keyProcedure
  .meta({
    auth: 'secret',
    openapi: {
      operationId: 'listEvents',
      method: 'GET',
      path: '/events',
      tags: ['Events'],
      summary: 'Events (the feed)',
      description:
        "What changed in the marketplace, oldest first: every change appends an event in its own transaction, with a `sequence` that increases by one per event in commit order. Poll with `after` set to the last `next_after` (no event is skipped or repeated); or receive the same events pushed as signed webhooks (Standard Webhooks; endpoints are set up by the team). `data.object` is the resource as /v1 shows it to its owner; updates carry the changed fields' previous values in `data.previous_attributes`. Events are kept 30 days. Secret key only.",
    },
    responseExamples: Object.fromEntries(Object.entries(EVENT_EXAMPLES).map(([type, e]) => [type, { summary: type, value: { items: [e], next_after: e.sequence, has_more: false } }])),
  })
  .input(ZListEvents)
  .output(ZEventList)
  .query(({ ctx, input }) => readEvents(ctx, input));
