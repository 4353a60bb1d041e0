import type { ConsoleInputs } from './api';

/**
 * The listing statuses and order states the filters offer, as the API's input types name them: a
 * status added to or removed from the API fails the typecheck here until this list follows.
 */
type ListingStatus = NonNullable<ConsoleInputs['listings']['list']['status']>;
type OrderState = NonNullable<ConsoleInputs['orders']['list']['state']>;

export const LISTING_STATUSES = ['pending_approval', 'pending_valuation', 'valuation_offered', 'published', 'denied', 'closed', 'draft'] as const satisfies readonly ListingStatus[];
export const ORDER_STATES = ['purchased', 'delivered', 'disputed', 'received', 'canceled', 'pending_payment', 'payment_expired'] as const satisfies readonly OrderState[];

const everyListingStatus: [Exclude<ListingStatus, (typeof LISTING_STATUSES)[number]>] extends [never] ? true : never = true;
const everyOrderState: [Exclude<OrderState, (typeof ORDER_STATES)[number]>] extends [never] ? true : never = true;
void everyListingStatus;
void everyOrderState;

/** The team's order moves, and which of them cannot be undone (they refund, cancel or close the dispute): those ask for a confirmation. */
export const TEAM_TRANSITIONS: Record<string, { label: string; irreversible: boolean; danger?: boolean }> = {
  'resolve-received': { label: 'Resolve: the buyer keeps it (the seller is paid)', irreversible: true },
  'resolve-canceled': { label: 'Resolve: cancel and refund the buyer', irreversible: true, danger: true },
  cancel: { label: 'Cancel and refund the buyer', irreversible: true, danger: true },
  'mark-delivered': { label: 'Mark delivered', irreversible: false },
};
