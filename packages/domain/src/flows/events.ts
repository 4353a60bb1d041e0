import { onEventAppended } from '../core/events.js';
import { queueDeliveries } from '../webhooks/index.js';

/**
 * Events to webhooks: every event a module appends (core/events.ts, in the change's transaction)
 * queues a delivery for each enabled endpoint of the marketplace that wants its type, in the same
 * transaction, so a committed event is never without its deliveries and a rolled-back one has none.
 *
 *   append   users, listings, orders, payouts, messages, pages → core appendEvent (sequence, evt_ id)
 *            → webhooks.queueDeliveries: a delivery per endpoint → addJob `deliver-webhook` (now)
 *   deliver  the `deliver-webhook` job (webhooks): signs (Standard Webhooks), POSTs, logs the attempt;
 *            a failure → addJob `deliver-webhook` again at the standard schedule's next time (8 attempts)
 */
onEventAppended(queueDeliveries);
