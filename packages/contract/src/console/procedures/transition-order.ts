import { z } from 'zod';
import { consoleProcedure } from '../../trpc.js';
import { byOrder, ORDER_EVENTS, ZTransitionData } from '@hm/domain/orders';
import { cliScope } from '../console-scope.js';
import { perform, transitionOrderOp } from '../operations.js';

export const ZTransitionFields = {
  transition: z.enum(ORDER_EVENTS).describe('The team’s moves: cancel (a paid order never sent: refunded), resolve-received, resolve-canceled (refunded), mark-delivered (marketplace fulfilment).'),
  data: ZTransitionData.optional().describe('JSON object of strings kept in history, e.g. {"tracking_number": "…", "carrier": "…"} for mark-delivered.'),
};

export const transitionOrderProcedure = consoleProcedure
  .input(z.strictObject({ id: z.uuid().describe('Order id.'), ...ZTransitionFields }).describe('Move an order as the marketplace team.'))
  .mutation(async ({ ctx, input }) => perform(transitionOrderOp, cliScope(ctx, await byOrder(ctx, input.id)), input));
