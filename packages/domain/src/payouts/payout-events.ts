import { movePayout } from './payout.effects.js';
import { PayoutAccountSchema, PayoutSchema, type PayoutAccount } from '@hm/db/entities';
import type { EntityManager } from '@hm/db/orm';
import { LockMode } from '@mikro-orm/core';
import { mirrorProviderStatus } from './payout-accounts.queries.js';
import { setupStatusOf } from './setup-status.js';

/**
 * The payouts module's steps for the provider's events; flows/settlement.ts says which event runs
 * which, inside the transaction that marks the event handled (so each happens once per event).
 */

export type AccountUpdate =
  | { skipped: string }
  | { account: PayoutAccount; was: PayoutAccount['status']; status: PayoutAccount['status']; due: string[]; waitingOrderIds: string[] };

/**
 * `account.updated`: the seller's payout setup status follows the provider's account (never polled
 * per request). An event older than the one the status is from changes nothing. An account that is
 * ready lists the orders whose payouts waited for it (the flow pays them).
 */
export async function updatePayoutAccount(em: EntityManager, e: { provider: string; data: Record<string, unknown>; eventAt: Date; now: Date }): Promise<AccountUpdate> {
  const accountId = typeof e.data.id === 'string' ? e.data.id : undefined;
  const account = accountId && (await em.findOne(PayoutAccountSchema, { providerAccountId: accountId, provider: e.provider as PayoutAccount['provider'] }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true }));
  if (!account) return { skipped: `ignored: no payout account ${accountId ?? '(none named)'}` };
  if (account.statusEventAt && account.statusEventAt > e.eventAt) return { skipped: `ignored: older than the account's status (${account.statusEventAt.toISOString()})` };
  const { status, due } = setupStatusOf(e.data);
  const was = account.status;
  mirrorProviderStatus(account, { status, due, eventAt: e.eventAt, now: e.now });
  const waiting = status === 'ready' ? await em.find(PayoutSchema, { sellerId: account.userId, status: 'waiting_for_payout_details' }) : [];
  await em.flush();
  return { account, was, status, due, waitingOrderIds: waiting.map((p) => p.orderId) };
}

/** Closed with the money kept by the marketplace: the held payout is released. */
const KEPT = new Set(['won', 'warning_closed']);

/**
 * What a chargeback (as the order now keeps it) does to the order's payout: an unpaid one is held
 * for the team; a held one is released to `pending` when the dispute closed in the marketplace's
 * favour (`won`, or an inquiry closed as `warning_closed`); a lost one stays held. A payout paid, or
 * whose transfer has started (pay-seller), is left to the team.
 */
export async function chargebackPayout(em: EntityManager, orderId: string, chargeback: { id: string; status: string }, now: Date): Promise<'held' | 'released' | 'paid' | 'unchanged'> {
  const payout = await em.findOne(PayoutSchema, { orderId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  if (!payout) return 'unchanged';
  if (payout.status === 'paid' || payout.transferStartedAt) return 'paid';
  if (payout.status === 'pending' || payout.status === 'waiting_for_payout_details') {
    await movePayout(payout, 'hold-for-chargeback', { em, now, data: { dispute: chargeback.id } });
    return 'held';
  }
  if (payout.status === 'held_for_chargeback' && KEPT.has(chargeback.status)) {
    await movePayout(payout, 'release-chargeback', { em, now, data: { dispute: chargeback.id } });
    return 'released';
  }
  return 'unchanged';
}
