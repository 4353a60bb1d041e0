import { z } from 'zod';
import { MarketplaceSchema, OrderSchema, type Marketplace, type Order, type OrderState } from '@hm/db/entities';
import { tenantEm, type EntityManager } from '@hm/db/orm';
import { LockMode } from '@mikro-orm/core';
import { ConflictError } from '../../core/errors.js';
import { addJob, jobKey, removeJob, removeJobs, type JobKey } from '../../core/jobs.js';
import { transition, type Effect, type Effects, type Move } from '../../core/state-machine.js';
import { defineTask, type TaskContext } from '../../core/tasks.js';
import { orderEffects } from '../order.effects.js';
import { announceOrderMove } from '../order.events.js';
import { ORDER_EVENTS, orderMachine, type OrderActor, type OrderEvent, type OrderMachineTypes } from '../order.machine.js';
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

/** The job key of the timer of an order's state (undefined for states without one). */
const timerKey = (state: OrderState, orderId: string): JobKey | undefined => {
  const task = taskOf(state);
  return task && jobKey(task, orderId);
};

/**
 * Leaving `from` removes its waiting timer (unless the caller sees to it: a timer's own run, whose
 * job graphile-worker completes, or a run that removes many at once); entering the order's state
 * schedules that state's, due from when it was entered. Every move runs it as its last effect
 * (ORDER_MOVE_EFFECTS); placing an order runs it for the first state (place-order.ts).
 */
export async function keepTimers(em: EntityManager, o: Order, from: OrderState | undefined, removeLeft = true): Promise<void> {
  if (from === o.status) return;
  const old = from && removeLeft && timerKey(from, o.id);
  if (old) await removeJob(em, old);
  const next = taskOf(o.status);
  if (next) await addJob(em, next, { marketplace_id: o.marketplaceId, order_id: o.id }, { jobKey: jobKey(next, o.id), runAt: new Date(o.stateEnteredAt.getTime() + STATE_TIMERS[o.status]!.after) });
}

/** The timers effect: the order's timers follow its state (in the move's transaction). */
const timers: Effect<OrderMachineTypes> = ({ entity, move, ctx }) => keepTimers(ctx.em, entity, move.from, !ctx.leftTimerSeenTo);

/** The order machine's whole effects table: each event's own (order.effects.ts), then its timers, then its `order.updated` event. No move runs without them. */
export const ORDER_MOVE_EFFECTS: Effects<OrderMachineTypes> = Object.fromEntries(ORDER_EVENTS.map((e) => [e, [...(orderEffects[e] ?? []), timers, announceOrderMove]]));

export interface MoveOptions {
  em: EntityManager;
  marketplace: Marketplace;
  now: Date;
  data?: Record<string, string>;
  /** false: the caller sees to the left state's timer job (see keepTimers) */
  removeLeftTimer?: boolean;
}

/** An order move by its table, with its effects (timers included): the one way commands change an order's state. The caller flushes. */
export function moveOrder(o: Order, event: OrderEvent, actor: OrderActor, { em, marketplace, now, data, removeLeftTimer = true }: MoveOptions): Promise<Move<OrderMachineTypes>> {
  return transition(orderMachine, o, event, actor, { ctx: { em, marketplace, leftTimerSeenTo: !removeLeftTimer }, now, data, effects: ORDER_MOVE_EFFECTS });
}

export interface SystemMoveOptions {
  /** why the order must not move now (the timer's state and due time), or undefined */
  check?: (o: Order, now: Date) => string | undefined;
  /** the run of the order's own timer (see keepTimers) */
  byOwnTimer?: boolean;
  /** other orders to move the same way in the same transaction, already locked (a timer's overdue ones) */
  alsoMove?: (em: EntityManager, now: Date) => Promise<Order[]>;
}

/**
 * One system move of one order in its own transaction, the order locked; a move the table refuses
 * (the order moved on meanwhile) is skipped, not an error, so a late or repeated job changes nothing.
 * Says what happened, naming the orders (the job's log line; the timers test helper's `result`).
 */
export function systemMove(ctx: TaskContext, ref: { marketplaceId: string; orderId: string }, event: OrderEvent, opts: SystemMoveOptions = {}): Promise<string> {
  return tenantEm(ctx.orm, ref.marketplaceId).transactional(async (em) => {
    const now = ctx.clock.now();
    const marketplace = await em.findOneOrFail(MarketplaceSchema, { id: ref.marketplaceId });
    const own = await em.findOne(OrderSchema, { id: ref.orderId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    const why = own ? opts.check?.(own, now) : 'no such order';
    const others = (await opts.alsoMove?.(em, now)) ?? [];
    // their timers' jobs go in one statement, not one each
    await removeJobs(em, others.flatMap((o) => timerKey(o.status, o.id) ?? []));
    // moved by listing, as every run does: their stock updates then lock listings in one order (no deadlock between runs)
    const moving = [...(own && !why ? [own] : []), ...others].sort((a, b) => a.listingId.localeCompare(b.listingId));
    let outcome = `order ${ref.orderId} skipped: ${why}`;
    for (const o of moving) {
      try {
        const move = await moveOrder(o, event, 'system', { em, marketplace, now, removeLeftTimer: o === own ? !opts.byOwnTimer : false });
        if (o === own) outcome = `order ${o.id}: ${move.transition} ${move.from} → ${move.to}`;
      } catch (e) {
        if (!(e instanceof ConflictError) || o !== own) throw e; // the table refuses before changing anything
        outcome = `order ${ref.orderId} skipped: ${e.message}`;
      }
    }
    await em.flush();
    return others.length ? `${outcome}; with it ${others.length} other overdue: ${others.map((x) => x.id).join(', ')}` : outcome;
  });
}

/** How many other overdue orders in the same state a timer's run moves with its own, in its transaction. */
const SWEEP = 200;

/**
 * A state's timer: its own order when it is still in the state and due; and, so that thousands of
 * timers due at once (a sale's payment windows ending together) finish in seconds rather than one
 * transaction each, up to SWEEP other orders of the marketplace overdue in the same state — locked
 * with SKIP LOCKED (never waiting on, or moving twice, what another run holds); their own jobs are
 * removed by the move, and any already running finds its order moved and changes nothing.
 */
function runTimer(ctx: TaskContext, state: OrderState, timer: StateTimer, p: z.output<typeof ZTimerPayload>): Promise<string> {
  return systemMove(ctx, { marketplaceId: p.marketplace_id, orderId: p.order_id }, timer.event, {
    byOwnTimer: true,
    check: (o, now) => {
      if (o.status !== state) return `the order is ${o.status}`;
      const due = new Date(o.stateEnteredAt.getTime() + timer.after);
      return now < due ? `not due until ${due.toISOString()}` : undefined;
    },
    alsoMove: (em, now) =>
      em.find(
        OrderSchema,
        { status: state, stateEnteredAt: { $lte: new Date(now.getTime() - timer.after) }, id: { $ne: p.order_id } },
        { lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE, orderBy: { stateEnteredAt: 'asc', id: 'asc' }, limit: SWEEP },
      ),
  });
}
