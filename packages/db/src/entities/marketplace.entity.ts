import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { uuidv7 } from '../ids.js';
import { updatedAt, type Localized } from './common.js';

export interface TermKind {
  key: string;
  names: Localized;
}

export interface ListingRules {
  min_images: number;
  require_approval: boolean;
  require_category: boolean;
  required_terms: string[];
  valuations: boolean;
  attributes_schema?: unknown;
}

/** Per-user caps against abuse (console settings `abuse_limits`); a missing member is the default. */
export interface AbuseLimits {
  pending_orders_per_buyer?: number;
  messages_per_minute?: number;
  new_conversations_per_hour?: number;
}

/** The spec's ShippingTable, stored as sent (validated by the domain's schema before it gets here). */
export type ShippingTable = Record<string, unknown> & { sizes: unknown[]; zones: unknown[] };

export const MarketplaceSchema = defineEntity({
  name: 'Marketplace',
  tableName: 'marketplaces',
  properties: {
    id: p.uuid().primary().onCreate(() => uuidv7()),
    name: p.string(),
    slug: p.string().unique(),
    currencies: p.array(),
    locales: p.array(),
    termKinds: p.json<TermKind[]>(),
    listingRules: p.json<ListingRules>(),
    shipping: p.json<ShippingTable>(),
    commissionPercent: p.double(),
    storefrontUrl: p.string().nullable(),
    /** the Resend audience (segment) newsletter contacts go to; unused by the local contact list */
    newsletterAudienceId: p.string().nullable(),
    abuseLimits: p.json<AbuseLimits>().onCreate(() => ({})),
    /** Stripe Connect service agreement of a seller in the platform's country (one abroad is always `recipient`) */
    payoutServiceAgreement: p.enum(['full', 'recipient'] as const).onCreate(() => 'full' as const),
    /** where the team is told of what needs it (a payout refused for good); null: the log only */
    alertEmail: p.string().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: updatedAt(),
  },
});
export type Marketplace = InferEntity<typeof MarketplaceSchema>;
