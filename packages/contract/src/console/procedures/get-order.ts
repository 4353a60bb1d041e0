import { z } from 'zod';
import { consoleProcedure } from '../../trpc.js';
import { byOrder } from '@hm/domain/orders';
import { cliScope } from '../console-scope.js';
import { getOrderOp, perform } from '../operations.js';

export const getOrderProcedure = consoleProcedure
  .input(z.strictObject({ id: z.uuid().describe('Order id.') }).describe('An order in any state, with its payment, refund and booking.'))
  .query(async ({ ctx, input }) => perform(getOrderOp, cliScope(ctx, await byOrder(ctx, input.id)), input));
