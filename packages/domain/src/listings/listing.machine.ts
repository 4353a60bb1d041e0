import type { Listing, ListingStatus, Marketplace } from '@hm/db/entities';
import type { EntityManager } from '@hm/db/orm';
import { ConflictError } from '../core/errors.js';
import { REMOVED, defineMachine, type Row } from '../core/state-machine.js';

export type ListingEvent = 'publish' | 'approve' | 'deny' | 'offer' | 'accept_offer' | 'counter_offer' | 'close' | 'delete';
/** the seller, or the marketplace team (through the console) */
export type ListingActor = 'seller' | 'operator';

export interface ListingMachineTypes {
  entity: Listing;
  event: ListingEvent;
  actor: ListingActor;
  ctx: { em: EntityManager; marketplace: Marketplace };
  data: { askValuation: boolean };
}
type ListingRow = Row<ListingMachineTypes>;

const SELLER = ['seller'] as const;
const TEAM = ['operator'] as const;
/** Sent (again) to the team or the shop: a review note and a closing date belong to the previous round. */
const SENT = ['reviewNote', 'closedAt'] as const;
/** The team's offer of a previous round (a listing closed and put up again): not this round's. */
const OFFERED = ['offerAmount', 'offerCurrency', 'offerNote', 'offerSchedule'] as const;
/** On sale from now: the price schedule counts from here (see listing.effects.ts). */
const GOES_ON_SALE = { stamp: ['publishedAt'], set: { everOnSale: true } } as const satisfies Partial<ListingRow>;
const approvalRequired = (m: Marketplace) => m.listingRules.require_approval;

/**
 * The spec's listing table (States and transitions → Listing statuses), row for row. Which of
 * publish's rows applies is decided by its guards, in the spec's Condition column; completeness
 * (422) is checked by the publish command against the row chosen.
 */
const rows: ListingRow[] = [
  // from, event, to, who, guard (condition), also
  { from: ['draft', 'closed'], event: 'publish', to: 'published', who: SELLER, guard: (_l, c, d) => !d.askValuation && !approvalRequired(c.marketplace), clear: [...SENT, ...OFFERED], ...GOES_ON_SALE },
  { from: ['draft', 'closed'], event: 'publish', to: 'pending_approval', who: SELLER, guard: (_l, c, d) => !d.askValuation && approvalRequired(c.marketplace), clear: [...SENT, 'counteredAt', ...OFFERED] },
  { from: ['draft', 'closed'], event: 'publish', to: 'pending_valuation', who: SELLER, guard: (_l, _c, d) => d.askValuation === true, clear: [...SENT, 'counteredAt', ...OFFERED] },
  { from: ['pending_approval'], event: 'approve', to: 'published', who: TEAM, clear: ['closedAt'], ...GOES_ON_SALE },
  { from: ['pending_approval'], event: 'deny', to: 'denied', who: TEAM },
  { from: ['pending_valuation'], event: 'offer', to: 'valuation_offered', who: TEAM },
  // a new offer on pending_approval is only for a listing whose seller countered the last one
  { from: ['pending_approval'], event: 'offer', to: 'valuation_offered', who: TEAM, guard: (l) => l.counteredAt !== null || 'This listing is waiting for approval, not a valuation: approve or deny it.' },
  { from: ['valuation_offered'], event: 'accept_offer', to: 'pending_approval', who: SELLER, clear: ['counteredAt'] },
  { from: ['valuation_offered'], event: 'counter_offer', to: 'pending_approval', who: SELLER, stamp: ['counteredAt'] },
  { from: ['published'], event: 'close', to: 'closed', who: SELLER, stamp: ['closedAt'] },
  // delete: only never-on-sale drafts are removed; a listing that was ever on sale is closed instead
  { from: ['draft'], event: 'delete', to: REMOVED, who: SELLER, guard: (l) => !l.everOnSale },
  { from: ['draft'], event: 'delete', to: 'closed', who: SELLER, guard: (l) => l.everOnSale, stamp: ['closedAt'] },
  { from: ['published'], event: 'delete', to: 'closed', who: SELLER, stamp: ['closedAt'] },
  { from: ['closed'], event: 'delete', to: 'closed', who: SELLER }, // already closed: nothing changes
];

/** Why an event is refused in a status, in words a seller (or operator) can act on. */
const WHY: Record<ListingStatus, string> = {
  pending_valuation: 'the marketplace is valuing it',
  pending_approval: 'the marketplace is reviewing it',
  valuation_offered: 'it has an offer waiting for your answer (accept or counter)',
  published: 'it is on sale',
  closed: 'it is closed',
  denied: 'it was denied and cannot be sent again',
  draft: 'it is a draft',
};

export const listingMachine = defineMachine<ListingMachineTypes>({
  name: 'listing',
  initial: 'draft',
  rows,
  refusal: (l, event) => `Cannot ${event.replace('_', ' ')} this listing: ${WHY[l.status]}.`,
});

/** Content edits (replace, photos): drafts, and listings on sale (which must stay complete). */
export function assertEditable(listing: Listing): void {
  if (listing.status === 'draft' || listing.status === 'published') return;
  throw new ConflictError(`This listing cannot be edited now: ${WHY[listing.status]}.`);
}
