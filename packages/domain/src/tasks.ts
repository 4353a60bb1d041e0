import { sendEmailTask } from './emails/index.js';
import { processImageTask } from './images/index.js';
import { applyPriceDropTask } from './listings/index.js';
import { handlePaymentEventTask, refundOrderTask } from './flows/index.js';
import { importRatesTask } from './rates/index.js';
import { repriceAllTask, repriceListingsTask } from './rates/index.js';
import { purgeIdempotencyKeysTask } from './core/idempotency-keys.js';
import { purgeRateLimitsTask } from './core/rate-limit.js';
import { purgeEventsTask } from './core/events.js';
import { deliverWebhookTask } from './webhooks/index.js';
import type { TaskDefinition } from './core/tasks.js';
import { autoCancelDisputeTask, autoCancelOrderTask, autoReceiveOrderTask, expirePaymentTask } from './orders/index.js';
import { confirmPaymentTask } from './orders/index.js';
import { cancelPaymentsTask } from './orders/index.js';
import { notifyMessagesTask } from './messages/index.js';
import { paySellerTask, reverseTransferTask } from './payouts/index.js';
import { addNewsletterContactTask } from './newsletter/index.js';

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
  reverseTransferTask,
  addNewsletterContactTask,
  deliverWebhookTask,
  purgeEventsTask,
];

export { sendEmailTask, processImageTask, applyPriceDropTask, repriceListingsTask, repriceAllTask, importRatesTask, purgeIdempotencyKeysTask, purgeRateLimitsTask, handlePaymentEventTask };
export { expirePaymentTask, autoCancelOrderTask, autoReceiveOrderTask, autoCancelDisputeTask, confirmPaymentTask, refundOrderTask, cancelPaymentsTask, notifyMessagesTask, paySellerTask, reverseTransferTask, addNewsletterContactTask, deliverWebhookTask, purgeEventsTask };
export { BULK_PRIORITY, defineTask, runTask, type TaskContext, type TaskDefinition, type TaskRun, type WorkerContext } from './core/tasks.js';
export { addJob, jobKey, type JobKey } from './core/jobs.js';
