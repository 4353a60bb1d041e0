import type { Listing } from '@hm/db/entities';
import type { UserCommandContext } from '../../core/context.js';
import { leavesScheduleBehind } from '../price-schedule.js';
import { sellerMove } from './move-listing.js';

/** POST …/offer/accept: the offer becomes the price (and its schedule the price schedule); back to the team for approval. */
export function acceptOffer(ctx: UserCommandContext, id: string): Promise<Listing> {
  return sellerMove(ctx, id, 'accept_offer', {
    prepare: (l) => {
      l.priceAmount = l.offerAmount;
      l.priceCurrency = l.offerCurrency;
      l.priceSchedule = l.offerSchedule?.length ? l.offerSchedule.map((s) => ({ months: s.months, amount: s.amount })) : null;
    },
  });
}

/**
 * POST …/offer/counter: the seller's price, in the offer's currency; the team approves it or offers
 * again. The seller's own schedule stays unless it was for a price in another currency.
 */
export function counterOffer(ctx: UserCommandContext, id: string, amount: number): Promise<Listing> {
  return sellerMove(ctx, id, 'counter_offer', {
    prepare: (l) => {
      if (leavesScheduleBehind(l, l.offerCurrency)) l.priceSchedule = null;
      l.priceAmount = amount;
      l.priceCurrency = l.offerCurrency;
    },
  });
}
