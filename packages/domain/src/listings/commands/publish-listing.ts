import { ListingImageSchema, type Listing } from '@hm/db/entities';
import type { UserCommandContext } from '../../core/context.js';
import { ValidationError } from '../../core/errors.js';
import { missingForPublish, type PublishTarget } from '../publish-checks.js';
import { sellerMove } from './move-listing.js';

/**
 * POST /v1/me/listings/{id}/publish (from draft or closed), by the listing table's publish rows:
 * - `ask_valuation` → pending_valuation (marketplace must have valuations on; no price needed)
 * - approval required → pending_approval (basics checked)
 * - else → published (everything checked)
 * Every missing item is listed at once (422).
 */
export async function publishListing(ctx: UserCommandContext, id: string, opts: { askValuation: boolean; wantsStorage: boolean }): Promise<Listing> {
  if (opts.askValuation && !ctx.marketplace.listingRules.valuations) {
    throw new ValidationError([{ location: 'ask_valuation', message: 'This marketplace does not value listings; set a price instead.', value: true }]);
  }
  return sellerMove(ctx, id, 'publish', {
    data: { askValuation: opts.askValuation },
    prepare: async (l, em, row) => {
      const ready = await em.count(ListingImageSchema, { listingId: l.id, status: 'ready' });
      const missing = missingForPublish(l, ready, ctx.marketplace, row.to as PublishTarget);
      if (missing.length) throw new ValidationError(missing, `The listing is not ready to publish: ${missing.length === 1 ? missing[0]!.message : `${missing.length} things are missing, see errors.`}`);
      l.wantsStorage = opts.wantsStorage;
    },
  });
}
