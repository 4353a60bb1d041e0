import { z } from 'zod';
import { keyProcedure } from '../../trpc.js';
import { ZMarketplace } from '@hm/domain/marketplace';
import { toMarketplaceBody } from '@hm/domain/marketplace';

export const getMarketplace = keyProcedure
  .meta({
    auth: 'key',
    touchesNoTable: true,
    openapi: { operationId: 'getMarketplace', method: 'GET', path: '/marketplace', tags: ['Marketplace'], summary: 'Get the marketplace', description: 'The marketplace the API key belongs to: currencies, languages, term kinds, listing rules and shipping table.' },
  })
  .input(z.strictObject({}))
  .output(ZMarketplace)
  .query(({ ctx }) => toMarketplaceBody(ctx.marketplace));
