import { UserSchema } from '@hm/db/entities';
import type { Effect } from '../core/state-machine.js';
import { queueListingNotice, type ListingNoticeTemplate } from '../emails/index.js';
import { LISTING_EFFECT_SLOTS, type ListingMachineTypes } from '../listings/index.js';

/**
 * Listing review: a listing the marketplace checks (approval) or values (valuation) before it goes
 * on sale. Every step is a move of the listing table (listings/listing.machine.ts); the commands are
 * the listings module's, the seller's notices the emails module's.
 *
 *   publish   seller POST /v1/me/listings/{id}/publish          listings.publishListing
 *               ask_valuation → pending_valuation; approval required → pending_approval;
 *               else → published (→ addJob `apply-price-drop` when it has a price schedule)
 *   value     team (console) listings offer                      listings.offerForListing
 *               pending_valuation → valuation_offered             → seller notice `listing_offer` (→ addJob `send-email`)
 *   answer    seller POST …/offer/accept | …/offer/counter       listings.acceptOffer / counterOffer
 *               valuation_offered → pending_approval (accepted: the offer is the price; countered: the
 *               seller's price, and the team may offer again)
 *   approve   team (console) listings approve                    listings.approveListing
 *               pending_approval → published                      → addJob `apply-price-drop` (first drop),
 *                                                                   seller notice `listing_published` (→ `send-email`)
 *   deny      team (console) listings deny --note                listings.denyListing
 *               pending_approval → denied                         → seller notice `listing_denied` (→ `send-email`)
 *
 * The listing table names `notify-seller` where it runs (listings/listing.effects.ts); this file fills it.
 */
const TEMPLATE: Partial<Record<ListingMachineTypes['event'], ListingNoticeTemplate>> = { approve: 'listing_published', deny: 'listing_denied', offer: 'listing_offer' };

/** The seller's notice email of the team's decision, linking to their page of the listing (sent only if the move commits). */
const notifySeller: Effect<ListingMachineTypes> = async ({ entity, move, ctx }) => {
  const template = TEMPLATE[move.transition];
  if (!template) throw new Error(`No seller notice for the listing move ${move.transition}.`);
  const seller = await ctx.em.findOneOrFail(UserSchema, { id: entity.sellerId });
  await queueListingNotice(ctx.em, ctx.marketplace, seller, template, entity.id);
};

LISTING_EFFECT_SLOTS.fill({ 'notify-seller': notifySeller });
