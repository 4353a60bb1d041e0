import type { UserContext } from '@hm/domain/core';
import { loadRelations, toListingBody, unitsOf } from '@hm/domain/listings';
import type { Listing } from '@hm/db/entities';

/** The seller's view of one listing (their own endpoints): relations loaded, term descriptions included. */
export async function ownListingBody(ctx: UserContext, l: Listing) {
  const [rel, units] = await Promise.all([loadRelations(ctx.em, [l]), unitsOf(ctx.em, [l.id])]);
  return toListingBody(l, rel, { marketplace: ctx.marketplace, publicUrl: ctx.publicUrl, single: true, own: true, units });
}

export const TAG = 'Seller listings';
