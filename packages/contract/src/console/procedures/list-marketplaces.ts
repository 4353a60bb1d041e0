import { crossTenantEm } from '@hm/db/orm';
import { z } from 'zod';
import { MarketplaceSchema } from '@hm/db/entities';
import { consoleProcedure } from '../../trpc.js';
import { toMarketplaceConsoleBody } from '@hm/domain/marketplace';

export const listMarketplacesProcedure = consoleProcedure
  .input(z.strictObject({}).describe('Every marketplace of this deployment, oldest first.'))
  .query(async ({ ctx }) => ({ items: (await crossTenantEm(ctx.orm).find(MarketplaceSchema, {}, { orderBy: { createdAt: 'asc' } })).map(toMarketplaceConsoleBody) }));
