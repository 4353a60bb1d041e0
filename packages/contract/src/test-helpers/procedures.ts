import { z } from 'zod';
import { keyProcedure } from '../trpc.js';
import { NotFoundError } from '@hm/domain/core';
import { ZDateTime } from '@hm/domain/core';
import { advanceTimers } from './advance-timers.js';

export const advanceTimersProcedure = keyProcedure
  .meta({
    auth: 'secret',
    requestExample: { until: '2026-12-24T12:00:00Z' },
    openapi: {
      operationId: 'advanceTestClock',
      method: 'POST',
      path: '/test-helpers/timers/advance',
      tags: ['Test helpers'],
      summary: 'Run timers due by a time (test mode)',
      description:
        "Runs this marketplace's timer jobs (scheduled price drops, …) that are due by `until`, earliest first, each as if at its due time — see months of timers happen now. Test mode only (404 in live mode).",
    },
  })
  .input(z.strictObject({ until: ZDateTime }))
  .output(z.object({ ran: z.array(z.object({ task: z.string(), run_at: ZDateTime, result: z.string() })) }))
  .mutation(async ({ ctx, input }) => {
    if (ctx.mode !== 'test') throw new NotFoundError('Test helpers exist in test mode only; this endpoint');
    return { ran: await advanceTimers(ctx, ctx.marketplace.id, new Date(input.until)) };
  });
