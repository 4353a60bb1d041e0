import { crossTenantEm } from '@hm/db/orm';
import { consoleProcedure } from '../../trpc.js';
import { findMarketplaceBySlug } from '@hm/domain/marketplace';
import { toMarketplaceConsoleBody } from '@hm/domain/marketplace';
import { ZMarketplaceRef } from '../console-scope.js';

export const getMarketplaceProcedure = consoleProcedure
  .input(ZMarketplaceRef.describe('A marketplace with its settings.'))
  .query(async ({ ctx, input }) => ({ marketplace: toMarketplaceConsoleBody(await findMarketplaceBySlug(crossTenantEm(ctx.orm), input.marketplace)) }));
