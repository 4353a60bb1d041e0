import { z } from 'zod';
import { consoleProcedure } from '../../trpc.js';
import { createApiKey, toApiKeyBody } from '@hm/domain/api-keys';
import { ZMarketplaceRef, scoped } from '../console-scope.js';

export const createKeyProcedure = consoleProcedure
  .input(ZMarketplaceRef.extend({ kind: z.enum(['secret', 'publishable']).describe('Secret keys for servers; publishable keys read public data only.') }).describe('Create an API key (the token is shown once).'))
  .mutation(async ({ ctx, input }) => {
    const { marketplace, em } = await scoped(ctx, input.marketplace);
    const { key, token } = createApiKey(em, marketplace.id, input.kind, ctx.mode);
    await em.flush();
    return { key: toApiKeyBody(key), token };
  });
