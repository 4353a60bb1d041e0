import { consoleProcedure } from '../../trpc.js';
import { ZMarketplaceRef, cliScope, scoped } from '../console-scope.js';
import { ZKeyKind, createKeyOp, perform } from '../operations.js';

export const createKeyProcedure = consoleProcedure
  .input(ZMarketplaceRef.extend({ kind: ZKeyKind }).describe('Create an API key (the token is shown once).'))
  .mutation(async ({ ctx, input }) => perform(createKeyOp, cliScope(ctx, await scoped(ctx, input.marketplace)), { kind: input.kind }));
