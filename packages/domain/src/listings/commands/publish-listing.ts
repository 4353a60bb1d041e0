import { ListingImageSchema, type Listing } from '@hm/db/entities';
import type { UserCommandContext } from '../../context.js';
import { ValidationError } from '../../errors.js';
import { assertTransition } from '../listing.machine.js';
import { missingForPublish } from '../publish-checks.js';
import { findOwnListing } from './find-listings.js';
import { putOnSale } from './review-listing.js';

/**
 * POST /v1/me/listings/{id}/publish (from draft or closed):
 * - `ask_valuation` → pending_valuation (marketplace must have valuations on; no price needed)
 * - approval required → pending_approval (basics checked)
 * - else → published (everything checked)
 * Every missing item is listed at once (422).
 */
export async function publishListing(ctx: UserCommandContext, id: string, opts: { askValuation: boolean; wantsStorage: boolean }): Promise<Listing> {
  const rules = ctx.marketplace.listingRules;
  if (opts.askValuation && !rules.valuations) {
    throw new ValidationError([{ location: 'ask_valuation', message: 'This marketplace does not value listings; set a price instead.', value: true }]);
  }
  return ctx.em.transactional(async (em) => {
    const l = await findOwnListing(em, ctx.user.id, id, { lock: true });
    assertTransition(l, 'publish');
    const ready = await em.count(ListingImageSchema, { listingId: l.id, status: 'ready' });
    const missing = missingForPublish(l, ready, ctx.marketplace, { askValuation: opts.askValuation });
    if (missing.length) throw new ValidationError(missing, `The listing is not ready to publish: ${missing.length === 1 ? missing[0]!.message : `${missing.length} things are missing, see errors.`}`);
    const now = ctx.clock.now();
    l.wantsStorage = opts.wantsStorage;
    l.reviewNote = null;
    l.closedAt = null;
    if (opts.askValuation) {
      l.status = 'pending_valuation';
      l.offerAmount = null;
      l.offerCurrency = null;
      l.offerNote = null;
      l.offerSchedule = null;
      l.counteredAt = null;
    } else if (rules.require_approval) {
      l.status = 'pending_approval';
      l.counteredAt = null;
    } else {
      await putOnSale(em, l, now);
    }
    l.updatedAt = now;
    await em.flush();
    return l;
  });
}
