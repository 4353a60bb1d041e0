import type { Listing, ListingStatus } from '@hm/db/entities';
import { ConflictError } from '../errors.js';

/**
 * The spec's listing status table (States and transitions → Listing statuses), as data. Guards
 * that need more than the status (completeness, marketplace rules) live in the commands.
 */
export type ListingEvent =
  | 'publish' // seller: draft or closed → published / pending_approval / pending_valuation
  | 'approve' // team
  | 'deny' // team
  | 'offer' // team: pending_valuation, or pending_approval after a counter
  | 'accept_offer' // seller
  | 'counter_offer' // seller
  | 'close' // seller
  | 'delete'; // seller: never-on-sale drafts; ever-on-sale listings are closed instead

export const TRANSITIONS: Record<ListingEvent, { from: ListingStatus[]; to: ListingStatus[] }> = {
  publish: { from: ['draft', 'closed'], to: ['published', 'pending_approval', 'pending_valuation'] },
  approve: { from: ['pending_approval'], to: ['published'] },
  deny: { from: ['pending_approval'], to: ['denied'] },
  offer: { from: ['pending_valuation', 'pending_approval'], to: ['valuation_offered'] },
  accept_offer: { from: ['valuation_offered'], to: ['pending_approval'] },
  counter_offer: { from: ['valuation_offered'], to: ['pending_approval'] },
  close: { from: ['published'], to: ['closed'] },
  delete: { from: ['draft', 'published', 'closed'], to: ['closed'] },
};

/** Why an event is refused in a status, in words a seller (or operator) can act on. */
const WHY: Partial<Record<ListingStatus, string>> = {
  pending_valuation: 'the marketplace is valuing it',
  pending_approval: 'the marketplace is reviewing it',
  valuation_offered: 'it has an offer waiting for your answer (accept or counter)',
  published: 'it is on sale',
  closed: 'it is closed',
  denied: 'it was denied and cannot be sent again',
  draft: 'it is a draft',
};

export function assertTransition(listing: Listing, event: ListingEvent): void {
  const t = TRANSITIONS[event];
  if (t.from.includes(listing.status)) {
    // a team offer on pending_approval is only for a listing whose seller countered an offer
    if (event === 'offer' && listing.status === 'pending_approval' && !listing.counteredAt) {
      throw new ConflictError('This listing is waiting for approval, not a valuation: approve or deny it.');
    }
    return;
  }
  throw new ConflictError(`Cannot ${event.replace('_', ' ')} this listing: ${WHY[listing.status] ?? `it is ${listing.status}`}.`);
}

/** Content edits (replace, photos): drafts, and listings on sale (which must stay complete). */
export function assertEditable(listing: Listing): void {
  if (listing.status === 'draft' || listing.status === 'published') return;
  const why = WHY[listing.status] ?? listing.status;
  throw new ConflictError(`This listing cannot be edited now: ${why}.`);
}

export const isOnSale = (l: Listing) => l.status === 'published';
