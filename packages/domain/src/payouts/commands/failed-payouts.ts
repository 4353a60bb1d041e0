import { PayoutSchema } from '@hm/db/entities';
import type { EntityManager } from '@hm/db/orm';
import { LockMode } from '@mikro-orm/core';
import { NotFoundError } from '../../core/errors.js';
import { movePayout } from '../payout.effects.js';
import { queuePaySeller } from './pay-seller.js';

/** A failed payout as the team sees it: the order, what was to be paid and why the provider refused. */
export interface FailedPayout {
  order_id: string;
  seller_id: string;
  amount: number;
  currency: string;
  /** the refusal's class (`account_not_ready`, `platform_balance_insufficient`, `currency_not_accepted`, `invalid_request`) */
  reason: string | null;
  /** the provider's own words */
  detail: string | null;
  failed_at: string;
}

/** The team's attention list of payouts (console `payouts failed`): every failed one, the latest first. */
export async function failedPayouts(em: EntityManager, limit = 100): Promise<FailedPayout[]> {
  const payouts = await em.find(PayoutSchema, { status: 'failed' }, { orderBy: { updatedAt: 'desc', id: 'desc' }, limit });
  return payouts.map((p) => {
    const failed = p.history.findLast((h) => h.to === 'failed');
    return { order_id: p.orderId, seller_id: p.sellerId, amount: p.amount, currency: p.currency, reason: p.failureReason ?? null, detail: failed?.data?.detail ?? null, failed_at: (failed ? new Date(failed.at) : p.updatedAt).toISOString() };
  });
}

/** A payout held because the buyer's bank disputed the payment (`held_for_chargeback`): the team handles it. */
export interface HeldPayout {
  order_id: string;
  seller_id: string;
  amount: number;
  currency: string;
  held_at: string;
}

/** The payouts held for a chargeback, the latest first (the attention list). */
export async function heldPayouts(em: EntityManager, limit = 100): Promise<HeldPayout[]> {
  const payouts = await em.find(PayoutSchema, { status: 'held_for_chargeback' }, { orderBy: { updatedAt: 'desc', id: 'desc' }, limit });
  return payouts.map((p) => {
    const held = p.history.findLast((h) => h.to === 'held_for_chargeback');
    return { order_id: p.orderId, seller_id: p.sellerId, amount: p.amount, currency: p.currency, held_at: (held ? new Date(held.at) : p.updatedAt).toISOString() };
  });
}

/** How many payouts wait for the team in a status (`failed`, `held_for_chargeback`). */
export function countPayouts(em: EntityManager, status: 'failed' | 'held_for_chargeback'): Promise<number> {
  return em.count(PayoutSchema, { status });
}

/**
 * The team fixed what made the provider refuse (the seller's account, the platform's balance, the
 * currency): the failed payout goes back to `pending` (its reason kept in its history) and the
 * pay-seller job is queued, which pays it — or fails it again, with the new reason. Only a failed
 * payout can be retried (409 otherwise, saying why).
 */
export async function retryPayout(em: EntityManager, ref: { marketplaceId: string; orderId: string }, now: Date): Promise<{ order_id: string; status: string }> {
  return em.transactional(async (tx) => {
    const payout = await tx.findOne(PayoutSchema, { orderId: ref.orderId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (!payout) throw new NotFoundError('This order’s payout');
    await movePayout(payout, 'retry', { em: tx, now, who: 'operator' });
    payout.failureReason = null;
    await tx.flush();
    await queuePaySeller(tx, ref.marketplaceId, ref.orderId);
    return { order_id: payout.orderId, status: payout.status };
  });
}
