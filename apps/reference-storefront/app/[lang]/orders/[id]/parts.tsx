import { MessageParty } from '../../../_components/message-party';
import type { OrderPart } from './order-part';
import { PayoutBreakdown } from './payout-breakdown';

/**
 * Extension points of the order page. Parts shown to the seller only (the payout breakdown goes
 * here) and to either party (the order's messages go here), in this order, below the order itself.
 * Each part loads what it needs (they are server components) and renders nothing when it has
 * nothing to show.
 */
export const PARTY_PARTS: OrderPart[] = [MessageParty];
export const SELLER_PARTS: OrderPart[] = [PayoutBreakdown];
