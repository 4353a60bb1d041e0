import type { Listing } from '@hm/db/entities';
import type { UserCommandContext } from '../../context.js';
import { moveListing } from '../listing.effects.js';
import { findOwnListing } from './find-listings.js';

/** POST …/offer/accept: the offer becomes the price (and its schedule the price schedule); back to the team for approval. */
export async function acceptOffer(ctx: UserCommandContext, id: string): Promise<Listing> {
  return ctx.em.transactional(async (em) => {
    const l = await findOwnListing(em, ctx.user.id, id, { lock: true });
    const now = ctx.clock.now();
    await moveListing(l, 'accept_offer', 'seller', {
      em,
      marketplace: ctx.marketplace,
      now,
      prepare: () => {
        l.priceAmount = l.offerAmount;
        l.priceCurrency = l.offerCurrency;
        l.priceSchedule = l.offerSchedule?.length ? l.offerSchedule.map((s) => ({ months: s.months, amount: s.amount })) : null;
      },
    });
    l.updatedAt = now;
    await em.flush();
    return l;
  });
}

/** POST …/offer/counter: the seller's price, in the offer's currency; the team approves it or offers again. */
export async function counterOffer(ctx: UserCommandContext, id: string, amount: number): Promise<Listing> {
  return ctx.em.transactional(async (em) => {
    const l = await findOwnListing(em, ctx.user.id, id, { lock: true });
    const now = ctx.clock.now();
    await moveListing(l, 'counter_offer', 'seller', {
      em,
      marketplace: ctx.marketplace,
      now,
      prepare: () => {
        l.priceAmount = amount;
        l.priceCurrency = l.offerCurrency;
      },
    });
    l.updatedAt = now;
    await em.flush();
    return l;
  });
}
