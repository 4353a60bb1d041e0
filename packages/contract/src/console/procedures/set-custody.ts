import { z } from 'zod';
import { consoleProcedure } from '../../trpc.js';
import { setCustody } from '@hm/domain/listings';
import { ZListingId, byListing, cliScope, consoleListing } from '../console-scope.js';
import { cmd, listingTarget, operation, perform } from '../operations.js';

export const ZCustodyFields = {
  custody: z.enum(['seller', 'collecting', 'stored']).describe('Who has the item: the seller, or the marketplace collecting it or storing it at a site.'),
  site: z.uuid().optional().describe('The site collecting or storing it.'),
};

/** `listings custody`, PUT /console/v1/listings/{id}/custody. */
export const setCustodyOp = operation({
  action: 'listing.set_custody',
  write: true,
  target: listingTarget,
  run: async (s, input: { id: string; custody: 'seller' | 'collecting' | 'stored'; site?: string | undefined }) => consoleListing(s.ctx, s, await setCustody(cmd(s), input.id, input.custody, input.site)),
});

export const setCustodyProcedure = consoleProcedure
  .input(ZListingId.extend(ZCustodyFields).describe('Record who has the item: the seller, or the marketplace collecting or storing it at a site.'))
  .mutation(async ({ ctx, input }) => perform(setCustodyOp, cliScope(ctx, await byListing(ctx, input.id)), input));
