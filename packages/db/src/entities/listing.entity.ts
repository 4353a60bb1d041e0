import { defineEntity, p, type InferEntity, type Opt } from '@mikro-orm/core';
import { ON_SALE_COLUMN } from '../migrations/Migration20261123010000_on_sale.js';
import { tenantColumns } from './common.js';

export const LISTING_STATUSES = ['draft', 'pending_valuation', 'valuation_offered', 'pending_approval', 'published', 'closed', 'denied'] as const;
export type ListingStatus = (typeof LISTING_STATUSES)[number];

export interface PriceStep {
  months: number;
  amount: number;
  /** set when the drop has been applied */
  done?: boolean;
}

export interface ListingLocation {
  city?: string;
  country?: string;
  postal_code?: string;
}

export interface ListingDelivery {
  buyer_arranged?: boolean;
  pickup?: boolean;
  shipping?: { price?: number; additional_item_price?: number };
}

/** The state lives here; what may change it lives in the domain's listing machine. */
export const ListingSchema = defineEntity({
  name: 'Listing',
  tableName: 'listings',
  properties: {
    ...tenantColumns(),
    sellerId: p.uuid(),
    status: p.enum(LISTING_STATUSES),
    title: p.string(),
    description: p.text(),
    locale: p.string(),
    attributes: p.json<Record<string, unknown>>(),
    categoryId: p.uuid().nullable(),
    /** term kind → term id */
    terms: p.json<Record<string, string>>(),
    priceAmount: p.bigint('number').nullable(),
    priceCurrency: p.string().nullable(),
    priceSchedule: p.json<PriceStep[]>().nullable(),
    /** when the current price schedule started counting (went on sale, or changed while on sale) */
    scheduleStartedAt: p.datetime().nullable(),
    offerAmount: p.bigint('number').nullable(),
    offerCurrency: p.string().nullable(),
    offerNote: p.text().nullable(),
    offerSchedule: p.json<PriceStep[]>().nullable(),
    counteredAt: p.datetime().nullable(),
    reviewNote: p.text().nullable(),
    stock: p.integer(),
    favoriteCount: p.integer(),
    location: p.json<ListingLocation>(),
    delivery: p.json<ListingDelivery>(),
    shippingSize: p.string().nullable(),
    custody: p.enum(['seller', 'collecting', 'stored'] as const),
    siteId: p.uuid().nullable(),
    wantsStorage: p.boolean(),
    storedAt: p.datetime().nullable(),
    commissionPercent: p.double().nullable(),
    everOnSale: p.boolean(),
    /** the seller is blocked, so the listing is out of the shop (kept in step by blocking) */
    sellerBlocked: p.boolean().default(false),
    /**
     * In the shop: published, in stock, seller not blocked. Computed by Postgres (a stored generated
     * column that the shop's indexes, its count and its search use), so it is only ever read here.
     */
    onSale: p.boolean().$type<Opt<boolean>>().generated(ON_SALE_COLUMN),
    publishedAt: p.datetime().nullable(),
    closedAt: p.datetime().nullable(),
    /** set by every command from its clock (latest change first in the seller's list) */
    updatedAt: p.datetime(),
  },
});
export type Listing = InferEntity<typeof ListingSchema>;
