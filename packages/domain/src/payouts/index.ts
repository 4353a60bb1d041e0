/** Entry point of `@hm/domain/payouts`: what the flows and the processes beside the API (tests, the console) use of seller payouts. */
export { createPayout } from './commands/create-payout.js';
export { countPayouts, type FailedPayout, failedPayouts, type HeldPayout, heldPayouts, retryPayout } from './commands/failed-payouts.js';
export { paySeller, paySellerTask, queuePaySeller } from './commands/pay-seller.js';
export { queueReversalIfPaid, queueReverseTransfer, reverseTransfer, reverseTransferTask } from './commands/reverse-transfer.js';
export { payoutSetup, startPayoutSession } from './commands/payout-setup.js';
export { type AccountUpdate, chargebackPayout, updatePayoutAccount } from './payout-events.js';
export { appendLedger, ledgerRows, type LedgerEntry, type LedgerRow } from './ledger.queries.js';
export { reconcile, type Reconciliation } from './commands/reconcile.js';
export { payoutRowsOf, payoutsOf } from './payouts.queries.js';
export { setupStatusOf } from './setup-status.js';
