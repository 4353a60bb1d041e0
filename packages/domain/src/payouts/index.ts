/** Entry point of `@hm/domain/payouts`: what runs beside the API (tests, the console) for seller payouts. */
export { createPayout } from './commands/create-payout.js';
export { paySeller, paySellerTask, queuePaySeller } from './commands/pay-seller.js';
export { payoutSetup, startPayoutSession } from './commands/payout-setup.js';
export { reconcile, type Reconciliation } from './commands/reconcile.js';
export { appendLedger } from './ledger.queries.js';
export { onAccountUpdated, onChargeRefunded, onDispute } from './payout-events.js';
export { payoutsOf } from './payouts.queries.js';
export { setupStatusOf } from './setup-status.js';
