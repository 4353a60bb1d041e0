import { z } from 'zod';
import { MarketplaceSchema, OrderSchema, type Marketplace, type Order, type OrderState } from '@hm/db/entities';
import { tenantEm, type EntityManager } from '@hm/db/orm';
import { LockMode } from '@mikro-orm/core';
import { ConflictError } from '../../errors.js';
import { addJob, jobKey, removeJob } from '../../shared/jobs.js';
import { transition, type Move } from '../../shared/state-machine.js';
import { defineTask, type TaskContext } from '../../shared/tasks.js';
import { orderEffects } from '../order.effects.js';
import { orderMachine, type OrderActor, type OrderEvent, type OrderMachineTypes } from '../order.machine.js';
import { STATE_TIMERS, type StateTimer } from '../order.timers.js';

/**
 * Order moves and the timers they keep. Declared together: a timer's task moves the order, and a
 * move schedules the next state's timer, so separate files would import each other.
 */

const ZTimerPayload = z.object({ marketplace_id: z.uuid(), order_id: z.uuid() });

/** A state's timer task: re-checks the state and the due time (so running late or twice changes nothing), then moves by `system`. */
function timerTask(state: OrderState) {
  const timer = STATE_TIMERS[state]!;
  return defineTask({ name: timer.task, payload: ZTimerPayload, timer: true, run: (p, ctx) => runTimer(ctx, state, timer, p) });
}

export const expirePaymentTask = timerTask('pending_payment');
export const autoCancelOrderTask = timerTask('purchased');
export const autoReceiveOrderTask = timerTask('delivered');
export const autoCancelDisputeTask = timerTask('disputed');
export const ORDER_TIMER_TASKS = [expirePaymentTask, autoCancelOrderTask, autoReceiveOrderTask, autoCancelDisputeTask];
const taskOf = (state: OrderState) => ORDER_TIMER_TASKS.find((t) => t.name === STATE_TIMERS[state]?.task);

/** Leaving `from` removes its waiting timer; entering the order's state schedules that state's, due from when it was entered. */
export async function keepTimers(em: EntityManager, o: Order, from: OrderState | undefined): Promise<void> {
  if (from === o.status) return;
  const old = from && taskOf(from);
  if (old) await removeJob(em, jobKey(old, o.id));
  const next = taskOf(o.status);
  if (next) await addJob(em, next, { marketplace_id: o.marketplaceId, order_id: o.id }, { jobKey: jobKey(next, o.id), runAt: new Date(o.stateEnteredAt.getTime() + STATE_TIMERS[o.status]!.after) });
}

export interface MoveOptions {
  em: EntityManager;
  marketplace: Marketplace;
  now: Date;
  data?: Record<string, string>;
}

/** An order move by its table, with its effects and timers: the one way commands change an order's state. The caller flushes. */
export async function moveOrder(o: Order, event: OrderEvent, actor: OrderActor, { em, marketplace, now, data }: MoveOptions): Promise<Move<OrderMachineTypes>> {
  const from = o.status;
  const move = await transition(orderMachine, o, event, actor, { ctx: { em, marketplace }, now, data, effects: orderEffects });
  await keepTimers(em, o, from);
  return move;
}

/**
 * One system move of one order in its own transaction, the order locked; a move the table refuses
 * (the order moved on meanwhile) is skipped, not an error, so a late or repeated job changes nothing.
 * Says what happened, naming the order (the job's log line; the timers test helper's `result`).
 */
export function systemMove(ctx: TaskContext, ref: { marketplaceId: string; orderId: string }, event: OrderEvent, check: (o: Order, now: Date) => string | undefined = () => undefined): Promise<string> {
  return tenantEm(ctx.orm, ref.marketplaceId).transactional(async (em) => {
    const o = await em.findOne(OrderSchema, { id: ref.orderId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    const skipped = (why: string) => `order ${ref.orderId} skipped: ${why}`;
    if (!o) return skipped('no such order');
    const now = ctx.clock.now();
    const why = check(o, now);
    if (why) return skipped(why);
    const marketplace = await em.findOneOrFail(MarketplaceSchema, { id: ref.marketplaceId });
    try {
      const move = await moveOrder(o, event, 'system', { em, marketplace, now });
      await em.flush();
      return `order ${o.id}: ${move.transition} ${move.from} → ${move.to}`;
    } catch (e) {
      if (e instanceof ConflictError) return skipped(e.message);
      throw e;
    }
  });
}

function runTimer(ctx: TaskContext, state: OrderState, timer: StateTimer, p: z.output<typeof ZTimerPayload>): Promise<string> {
  return systemMove(ctx, { marketplaceId: p.marketplace_id, orderId: p.order_id }, timer.event, (o, now) => {
    if (o.status !== state) return `the order is ${o.status}`;
    const due = new Date(o.stateEnteredAt.getTime() + timer.after);
    return now < due ? `not due until ${due.toISOString()}` : undefined;
  });
}
