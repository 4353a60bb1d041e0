import type { Payout } from '@hm/db/entities';
import type { EntityManager } from '@hm/db/orm';
import { appendEvent } from '../core/events.js';
import { transition, type Effect, type Move } from '../core/state-machine.js';
import { payoutMachine, type PayoutEvent, type PayoutMachineTypes } from './payout.machine.js';

/**
 * The payout as its seller sees it on their order (`order.payout`), with its order's id: the
 * object of `payout.updated`.
 */
export function toPayoutEventObject(p: Payout) {
  return { order_id: p.orderId, subtotal: p.subtotal, commission: p.commission, storage_fee: p.storageFee, storage_months: p.storageMonths, amount: p.amount, currency: p.currency, status: p.status };
}

/** Every payout move appends `payout.updated` with the status it left. */
const announce: Effect<PayoutMachineTypes> = async ({ entity, move, ctx }) => {
  await appendEvent(ctx.em, { type: 'payout.updated', object: toPayoutEventObject(entity), previous: { status: move.from }, at: move.at });
};
const EFFECTS = { pay: [announce], 'wait-for-details': [announce], 'hold-for-chargeback': [announce], 'release-chargeback': [announce], fail: [announce], retry: [announce] } as const;

/** A payout move by its table, with its event: the one way commands change a payout's status. */
export function movePayout(payout: Payout, event: PayoutEvent, opts: { em: EntityManager; now: Date; data?: Record<string, string>; who?: 'system' | 'operator' }): Promise<Move<PayoutMachineTypes>> {
  return transition(payoutMachine, payout, event, opts.who ?? 'system', { ctx: { em: opts.em }, now: opts.now, ...(opts.data ? { data: opts.data } : {}), effects: EFFECTS });
}
