/** Entry point of `@hm/domain/payouts`: what runs beside the API (tests, the console) for seller payouts. */
export { paySeller, paySellerTask } from './commands/pay-seller.js';
export { reconcile, type Reconciliation } from './commands/reconcile.js';
export { setupStatusOf } from './setup-status.js';
