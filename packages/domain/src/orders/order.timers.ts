import type { OrderState } from '@hm/db/entities';
import type { OrderEvent } from './order.machine.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** Spec, Limits → Payment window: 15 minutes, then `payment_expired`. */
export const PAYMENT_WINDOW_MS = 15 * MINUTE;

export interface StateTimer {
  /** the task (and job key prefix `<task>:<order id>`) */
  task: string;
  /** the automatic move it makes, by `system` */
  event: OrderEvent;
  /** after this long in the state */
  after: number;
}

/**
 * The automatic moves (spec: Order states and Limits → Automatic timers), one per state at most:
 * entering the state schedules its timer, leaving it removes the timer, and the timer re-checks
 * the state and its due time before it moves the order.
 */
export const STATE_TIMERS: Partial<Record<OrderState, StateTimer>> = {
  pending_payment: { task: 'expire-payment', event: 'expire-payment', after: PAYMENT_WINDOW_MS },
  purchased: { task: 'auto-cancel-order', event: 'cancel', after: 14 * DAY },
  delivered: { task: 'auto-receive-order', event: 'mark-received', after: 14 * DAY },
  disputed: { task: 'auto-cancel-dispute', event: 'resolve-canceled', after: 60 * DAY },
};

/**
 * A paid order not marked sent this long is on the team's attention list ("never sent"): half of
 * the 14 days after which it is canceled by itself, so the team can still chase the seller.
 */
export const NOT_SENT_ATTENTION_MS = STATE_TIMERS.purchased!.after / 2;
