import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns } from './common.js';

/** the spec's four, and `failed` (added: the provider refused the transfer for good; docs/decisions.md) */
export const PAYOUT_STATUSES = ['pending', 'paid', 'waiting_for_payout_details', 'held_for_chargeback', 'failed'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];
export const PAYOUT_SETUP_STATUSES = ['none', 'action_required', 'pending', 'ready'] as const;
export type PayoutSetupStatus = (typeof PAYOUT_SETUP_STATUSES)[number];

/** One move of a payout (pay, wait, hold), kept like an order's history. */
export interface PayoutHistoryEntry {
  transition: string;
  from: string;
  to: string;
  actor: 'system' | 'operator';
  at: string;
  data?: Record<string, string>;
}

/**
 * What an order brings its seller (spec: Payout), fixed when the order is placed; the state lives
 * here as `status` and only the domain's payout machine changes it.
 */
export const PayoutSchema = defineEntity({
  name: 'Payout',
  tableName: 'payouts',
  properties: {
    ...tenantColumns(),
    orderId: p.uuid(),
    sellerId: p.uuid(),
    currency: p.string(),
    subtotal: p.bigint('number'),
    commission: p.bigint('number'),
    storageFee: p.bigint('number'),
    storageMonths: p.integer(),
    amount: p.bigint('number'),
    /** shipping the buyer paid for a parcel the marketplace sends (the marketplace keeps it) */
    marketplaceShipping: p.bigint('number'),
    /** the voucher's discount (paid by the marketplace, not the seller) */
    voucher: p.bigint('number'),
    status: p.enum(PAYOUT_STATUSES),
    transferId: p.string().nullable(),
    /** set when the pay-seller job starts the transfer (committed before the provider is called); see pay-seller.ts */
    transferStartedAt: p.datetime().nullable(),
    /** the amount of a transfer asked for whose outcome is not known yet: a retry asks for the same one (same idempotency key and parameters) */
    transferAmount: p.bigint('number').nullable(),
    /** a reversal asked for and not recorded yet (our id, its amount): a retry asks for the same one */
    reversalId: p.string().nullable(),
    reversalAmount: p.bigint('number').nullable(),
    paidAt: p.datetime().nullable(),
    /** why the provider refused the transfer for good (status `failed`), in its words */
    failureReason: p.string().nullable(),
    history: p.json<PayoutHistoryEntry[]>(),
    updatedAt: p.datetime(),
  },
});
export type Payout = InferEntity<typeof PayoutSchema>;

/** A seller's account at the payment provider (Stripe: a connected account), one per seller and marketplace. */
export const PayoutAccountSchema = defineEntity({
  name: 'PayoutAccount',
  tableName: 'payout_accounts',
  properties: {
    ...tenantColumns(),
    userId: p.uuid(),
    provider: p.enum(['local', 'stripe'] as const),
    providerAccountId: p.string().nullable(),
    country: p.string(),
    businessType: p.enum(['individual', 'company'] as const),
    status: p.enum(PAYOUT_SETUP_STATUSES),
    due: p.json<string[]>(),
    statusEventAt: p.datetime().nullable(),
    updatedAt: p.datetime(),
  },
});
export type PayoutAccount = InferEntity<typeof PayoutAccountSchema>;
