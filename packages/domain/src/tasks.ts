import { sendEmailTask } from './emails/commands/deliver-email.js';
import { processImageTask } from './images/commands/process-image.js';
import { applyPriceDropTask } from './listings/commands/price-drops.js';
import { handlePaymentEventTask } from './payments/commands/handle-payment-event.js';
import { importRatesTask } from './rates/commands/import-rates.js';
import { repriceAllTask, repriceListingsTask } from './rates/commands/reprice-listings.js';
import { purgeIdempotencyKeysTask } from './shared/idempotency-keys.js';
import { purgeRateLimitsTask } from './shared/rate-limit.js';
import type { TaskDefinition } from './shared/tasks.js';
import { autoCancelDisputeTask, autoCancelOrderTask, autoReceiveOrderTask, expirePaymentTask } from './orders/commands/move-order.js';
import { confirmPaymentTask } from './orders/commands/confirm-payment.js';
import { refundOrderTask } from './orders/commands/refund-order.js';
import { cancelPaymentsTask } from './orders/commands/cancel-payment.js';
import { notifyMessagesTask } from './messages/commands/write-message.js';
import { paySellerTask } from './payouts/commands/pay-seller.js';
import { addNewsletterContactTask } from './newsletter/commands/subscribe.js';

/**
 * Entry point of `@hm/domain/tasks`: every background task, each declared once beside the command
 * it runs. The worker's task list (packages/jobs) and the timers test helper are built from this.
 */
export const TASKS: readonly TaskDefinition[] = [
  sendEmailTask,
  processImageTask,
  applyPriceDropTask,
  repriceListingsTask,
  repriceAllTask,
  importRatesTask,
  purgeIdempotencyKeysTask,
  purgeRateLimitsTask,
  handlePaymentEventTask,
  expirePaymentTask,
  autoCancelOrderTask,
  autoReceiveOrderTask,
  autoCancelDisputeTask,
  confirmPaymentTask,
  refundOrderTask,
  cancelPaymentsTask,
  notifyMessagesTask,
  paySellerTask,
  addNewsletterContactTask,
];

export { sendEmailTask, processImageTask, applyPriceDropTask, repriceListingsTask, repriceAllTask, importRatesTask, purgeIdempotencyKeysTask, purgeRateLimitsTask, handlePaymentEventTask };
export { expirePaymentTask, autoCancelOrderTask, autoReceiveOrderTask, autoCancelDisputeTask, confirmPaymentTask, refundOrderTask, cancelPaymentsTask, notifyMessagesTask, paySellerTask, addNewsletterContactTask };
export { BULK_PRIORITY, defineTask, runTask, type TaskContext, type TaskDefinition, type TaskRun, type WorkerContext } from './shared/tasks.js';
export { addJob, jobKey, type JobKey } from './shared/jobs.js';
