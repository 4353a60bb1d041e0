import type { Listing } from '@hm/db/entities';
import type { UserCommandContext } from '../../context.js';
import { assertTransition } from '../listing.machine.js';
import { findOwnListing } from './find-listings.js';

/** POST …/offer/accept: the offer becomes the price (and its schedule the price schedule); back to the team for approval. */
export async function acceptOffer(ctx: UserCommandContext, id: string): Promise<Listing> {
  return ctx.em.transactional(async (em) => {
    const l = await findOwnListing(em, ctx.user.id, id, { lock: true });
    assertTransition(l, 'accept_offer');
    l.priceAmount = l.offerAmount;
    l.priceCurrency = l.offerCurrency;
    l.priceSchedule = l.offerSchedule?.length ? l.offerSchedule.map((s) => ({ months: s.months, amount: s.amount })) : null;
    l.status = 'pending_approval';
    l.counteredAt = null;
    l.updatedAt = ctx.clock.now();
    await em.flush();
    return l;
  });
}

/** POST …/offer/counter: the seller's price, in the offer's currency; the team approves it or offers again. */
export async function counterOffer(ctx: UserCommandContext, id: string, amount: number): Promise<Listing> {
  return ctx.em.transactional(async (em) => {
    const l = await findOwnListing(em, ctx.user.id, id, { lock: true });
    assertTransition(l, 'counter_offer');
    const now = ctx.clock.now();
    l.priceAmount = amount;
    l.priceCurrency = l.offerCurrency;
    l.status = 'pending_approval';
    l.counteredAt = now;
    l.updatedAt = now;
    await em.flush();
    return l;
  });
}
