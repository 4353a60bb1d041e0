import type { Listing, Marketplace } from '@hm/db/entities';
import type { EntityManager } from '@hm/db/orm';
import { appendEvent, changedFrom, eventPublicUrl, type EventObject } from '../core/events.js';
import { loadRelations, toListingBody } from './listing.mapper.js';

/**
 * The listings' events, in one place: `listing.created` when a draft is made, `listing.updated`
 * when a change (a move by the table, an edit by its seller, a team setting) leaves its body
 * different, with the changed fields' previous values. The object is the seller's own view.
 */

async function listingObject(em: EntityManager, marketplace: Marketplace, l: Listing): Promise<EventObject> {
  return toListingBody(l, await loadRelations(em, [l]), { marketplace, publicUrl: eventPublicUrl(), single: true, own: true });
}

export async function announceListingCreated(em: EntityManager, marketplace: Marketplace, l: Listing, at: Date): Promise<void> {
  await appendEvent(em, { type: 'listing.created', object: await listingObject(em, marketplace, l), at });
}

/** Runs a change of a locked listing (in the caller's transaction) and appends `listing.updated` when its body changed. */
export async function announcingUpdate<T>(em: EntityManager, marketplace: Marketplace, l: Listing, at: Date, change: () => Promise<T>, opts: { removed?: (result: T) => boolean } = {}): Promise<T> {
  const before = await listingObject(em, marketplace, l);
  const result = await change();
  if (opts.removed?.(result)) return result; // a never-on-sale draft deleted: nothing left to show
  const after = await listingObject(em, marketplace, l);
  const previous = changedFrom(before, after);
  if (Object.keys(previous).length) await appendEvent(em, { type: 'listing.updated', object: after, previous, at });
  return result;
}
