import { ListingImageSchema, type Listing } from '@hm/db/entities';
import type { UserCommandContext } from '../../core/context.js';
import { imageKeys, type ImageStore } from '../../core/ports/image-store.js';
import { REMOVED } from '../../core/state-machine.js';
import { moveListing } from '../listing.effects.js';
import { announcingUpdate } from '../listing.events.js';
import { findOwnListing } from './find-listings.js';
import { sellerMove } from './move-listing.js';

/** POST …/close: published → closed; its price drops stop. */
export function closeListing(ctx: UserCommandContext, id: string): Promise<Listing> {
  return sellerMove(ctx, id, 'close');
}

/**
 * DELETE /v1/me/listings/{id}: a draft that was never on sale is removed with its photos; a
 * listing that was ever on sale is closed instead (kept for orders and history). Others → 409.
 */
export async function deleteListing(ctx: UserCommandContext & { images: ImageStore }, id: string): Promise<'deleted' | 'closed'> {
  const outcome = await ctx.em.transactional(async (em) => {
    const l = await findOwnListing(em, ctx.user.id, id, { lock: true });
    const now = ctx.clock.now();
    const closing = async () => {
      const m = await moveListing(l, 'delete', 'seller', { em, marketplace: ctx.marketplace, now });
      if (m.to !== REMOVED && m.from !== m.to) l.updatedAt = now;
      return m;
    };
    const move = await announcingUpdate(em, ctx.marketplace, l, now, closing, { removed: (m) => m.to === REMOVED });
    if (move.to === REMOVED) {
      const images = await em.find(ListingImageSchema, { listingId: l.id });
      em.remove(l);
      await em.flush();
      return { result: 'deleted' as const, imageIds: images.map((i) => i.id) };
    }
    await em.flush();
    return { result: 'closed' as const, imageIds: [] };
  });
  // files go after the rows are gone (a failure here leaves files without a row, never a row without
  // files); a photo still processing is cleaned by its job, which finds the row gone (process-image.ts)
  await ctx.images.delete(outcome.imageIds.flatMap(imageKeys));
  return outcome.result;
}
