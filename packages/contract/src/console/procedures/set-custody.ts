import { z } from 'zod';
import { consoleProcedure } from '../../trpc.js';
import { setCustody } from '@hm/domain/listings';
import { ZListingId, byListing, consoleListing } from '../console-scope.js';

export const setCustodyProcedure = consoleProcedure
  .input(
    ZListingId.extend({
      custody: z.enum(['seller', 'collecting', 'stored']).describe('Who has the item.'),
      site: z.uuid().optional().describe('The site collecting or storing it.'),
    }).describe('Record who has the item: the seller, or the marketplace collecting or storing it at a site.'),
  )
  .mutation(async ({ ctx, input }) => {
    const scope = await byListing(ctx, input.id);
    return consoleListing(ctx, scope, await setCustody(scope.cmd, input.id, input.custody, input.site));
  });
