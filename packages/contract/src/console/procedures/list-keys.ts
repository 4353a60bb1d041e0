import { consoleProcedure } from '../../trpc.js';
import { ZMarketplaceRef, cliScope, scoped } from '../console-scope.js';
import { listKeysOp, perform } from '../operations.js';

export const listKeysProcedure = consoleProcedure
  .input(ZMarketplaceRef.describe("A marketplace's API keys (hints only, never the tokens)."))
  .query(async ({ ctx, input }) => perform(listKeysOp, cliScope(ctx, await scoped(ctx, input.marketplace)), {}));
