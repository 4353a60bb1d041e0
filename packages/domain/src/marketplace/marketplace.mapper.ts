import type { Marketplace } from '@hm/db/entities';
import { abuseLimitsOf } from './abuse-limits.js';
import type { MarketplaceBody, ShippingTableBody } from './marketplace.schema.js';

export function toMarketplaceBody(m: Marketplace): MarketplaceBody {
  const rules = m.listingRules;
  return {
    id: m.id,
    name: m.name,
    slug: m.slug,
    currencies: m.currencies,
    locales: m.locales,
    term_kinds: m.termKinds,
    listings: {
      min_images: rules.min_images,
      require_approval: rules.require_approval,
      require_category: rules.require_category,
      required_terms: rules.required_terms,
      valuations: rules.valuations,
      ...(rules.attributes_schema !== undefined ? { attributes_schema: rules.attributes_schema } : {}),
    },
    shipping: m.shipping as ShippingTableBody,
  };
}

/** Console view: the public body plus operator-only settings. */
export function toMarketplaceConsoleBody(m: Marketplace) {
  return {
    ...toMarketplaceBody(m),
    commission_percent: m.commissionPercent,
    storefront_url: m.storefrontUrl ?? null,
    newsletter_audience_id: m.newsletterAudienceId ?? null,
    abuse_limits: abuseLimitsOf(m),
    payout_service_agreement: m.payoutServiceAgreement,
    alert_email: m.alertEmail ?? null,
    created_at: m.createdAt.toISOString(),
    updated_at: m.updatedAt.toISOString(),
  };
}
