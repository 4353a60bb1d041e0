import { consoleProcedure } from '../../trpc.js';
import { ZSiteInput } from '@hm/domain/locations';
import { createSite, toSiteBody } from '@hm/domain/locations';
import { fromFile } from '../console-fields.js';
import { ZMarketplaceRef, scoped } from '../console-scope.js';

export const createSiteProcedure = consoleProcedure
  .input(
    ZMarketplaceRef.extend({
      site: fromFile(ZSiteInput, 'Site JSON: {"kind": "showroom"|"warehouse", "name", "line1", "postal_code", "city", "country", "active", "buyer_pickup", "opening_hours"}.'),
    }).describe('Add a showroom or warehouse.'),
  )
  .mutation(async ({ ctx, input }) => {
    const { marketplace, em } = await scoped(ctx, input.marketplace);
    return { site: toSiteBody(await createSite(em, marketplace.id, input.site)) };
  });
