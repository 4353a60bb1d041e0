import type { Payout, PayoutStatus } from '@hm/db/entities';
import type { EntityManager } from '@hm/db/orm';
import { defineMachine, type Row } from '../core/state-machine.js';

/**
 * A payout's moves (spec: Payout status). `pending` until the order is received; then the
 * pay-seller job pays it, or it waits for the seller's payout details (paid as soon as their
 * account is ready); a chargeback holds an unpaid payout for the team, and a dispute the seller's
 * side wins (or an inquiry closed without a chargeback) releases it to `pending`, from where the
 * pay-seller job pays it as if it had never been held. A transfer the provider refuses for good
 * makes it `failed` (with the reason); the team's retry puts it back to `pending` and pays it.
 */
export type PayoutEvent = 'pay' | 'wait-for-details' | 'hold-for-chargeback' | 'release-chargeback' | 'fail' | 'retry';
export interface PayoutMachineTypes {
  entity: Payout;
  event: PayoutEvent;
  actor: 'system' | 'operator';
  ctx: { em: EntityManager };
  data: Record<string, string>;
}

const SYSTEM = ['system'] as const;
const UNPAID: PayoutStatus[] = ['pending', 'waiting_for_payout_details'];
const rows: Row<PayoutMachineTypes>[] = [
  { from: UNPAID, event: 'pay', to: 'paid', who: SYSTEM, stamp: ['paidAt', 'updatedAt'] },
  { from: ['pending'], event: 'wait-for-details', to: 'waiting_for_payout_details', who: SYSTEM, stamp: ['updatedAt'] },
  { from: UNPAID, event: 'hold-for-chargeback', to: 'held_for_chargeback', who: SYSTEM, stamp: ['updatedAt'] },
  { from: ['held_for_chargeback'], event: 'release-chargeback', to: 'pending', who: SYSTEM, stamp: ['updatedAt'] },
  // the provider refused the transfer for good (pay-seller); the team fixes the cause and retries (console `payouts retry`)
  { from: UNPAID, event: 'fail', to: 'failed', who: SYSTEM, stamp: ['updatedAt'] },
  { from: ['failed'], event: 'retry', to: 'pending', who: ['operator'], stamp: ['updatedAt'] },
];

const WHERE: Record<PayoutStatus, string> = {
  pending: 'the order is not received yet',
  paid: 'it is paid',
  waiting_for_payout_details: 'the seller has not finished payout setup',
  held_for_chargeback: 'it is held for a chargeback',
  failed: 'the provider refused its transfer: retry it after fixing the cause',
};

export const payoutMachine = defineMachine<PayoutMachineTypes>({
  name: 'payout',
  initial: 'pending',
  rows,
  refusal: (p, event) => `Cannot ${event.replaceAll('-', ' ')} this payout: ${WHERE[p.status]}.`,
  history: (p, move) => {
    const data = move.data && Object.keys(move.data).length ? { data: move.data as Record<string, string> } : {};
    p.history = [...p.history, { transition: move.transition, from: move.from, to: move.to, actor: move.actor, at: move.at.toISOString(), ...data }];
  },
});
