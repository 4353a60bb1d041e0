import { consoleProcedure } from '../../trpc.js';
import { listApiKeys, toApiKeyBody } from '@hm/domain/api-keys';
import { ZMarketplaceRef, scoped } from '../console-scope.js';

export const listKeysProcedure = consoleProcedure
  .input(ZMarketplaceRef.describe("A marketplace's API keys (hints only, never the tokens)."))
  .query(async ({ ctx, input }) => {
    const { em } = await scoped(ctx, input.marketplace);
    return { items: (await listApiKeys(em)).map(toApiKeyBody) };
  });
