import { PayoutSchema, type Listing, type Marketplace, type Order } from '@hm/db/entities';
import type { EntityManager } from '@hm/db/orm';
import type { ShippingTableBody } from '../../marketplace/index.js';
import { loadRateBook, todayOf } from '../../rates/index.js';
import { payoutFigures } from '../payout-figures.js';
import { payoutMachine } from '../payout.machine.js';

/**
 * The payout of a new order, written with it (order placing's transaction): its figures are fixed
 * at the sale — the listing's commission (else the marketplace's), and the storage months up to
 * now. A storage fee the day's rates cannot convert to the order's currency is not charged.
 */
export async function createPayout(em: EntityManager, marketplace: Marketplace, listing: Listing, order: Order, now: Date): Promise<void> {
  const table = marketplace.shipping as ShippingTableBody;
  const monthly = listing.shippingSize ? table.storage_fees?.[listing.shippingSize] : undefined;
  let storage;
  if (listing.custody === 'stored' && listing.storedAt && monthly !== undefined) {
    const rates = await loadRateBook(em, marketplace, todayOf(now));
    const fee = rates.convert(monthly, table.currency ?? marketplace.currencies[0]!, order.currency);
    if (fee !== undefined) storage = { storedAt: listing.storedAt, freeWeeks: table.free_storage_weeks ?? 0, monthlyFee: fee };
  }
  const f = payoutFigures({ lineItems: order.lineItems, fulfilment: order.fulfilment, commissionPercent: Number(listing.commissionPercent ?? marketplace.commissionPercent), storage, soldAt: now });
  em.create(PayoutSchema, {
    marketplaceId: marketplace.id,
    orderId: order.id,
    sellerId: order.sellerId,
    currency: order.currency,
    subtotal: f.subtotal,
    commission: f.commission,
    storageFee: f.storageFee,
    storageMonths: f.storageMonths,
    amount: f.amount,
    marketplaceShipping: f.marketplaceShipping,
    voucher: f.voucher,
    status: payoutMachine.initial,
    transferId: null,
    transferStartedAt: null,
    transferAmount: null,
    reversalId: null,
    reversalAmount: null,
    paidAt: null,
    history: [],
    createdAt: now,
    updatedAt: now,
  });
}
