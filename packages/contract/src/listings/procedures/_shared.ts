import type { UserContext } from '@hm/domain/core';
import { loadRelations, toListingBody } from '@hm/domain/listings';
import type { Listing } from '@hm/db/entities';

/** The seller's view of one listing (their own endpoints): relations loaded, term descriptions included. */
export async function ownListingBody(ctx: UserContext, l: Listing) {
  const rel = await loadRelations(ctx.em, [l]);
  return toListingBody(l, rel, { marketplace: ctx.marketplace, publicUrl: ctx.publicUrl, single: true, own: true });
}

export const TAG = 'Seller listings';
