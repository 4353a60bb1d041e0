import { consoleProcedure } from '../../trpc.js';
import { ZMarketplaceRef, cliScope, scoped } from '../console-scope.js';
import { ZOrderFilter, listOrdersOp, perform } from '../operations.js';

export const listOrdersProcedure = consoleProcedure
  .input(ZMarketplaceRef.extend(ZOrderFilter).describe("The marketplace's orders, newest first."))
  .query(async ({ ctx, input }) => perform(listOrdersOp, cliScope(ctx, await scoped(ctx, input.marketplace)), input));
