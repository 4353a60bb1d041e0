import { z } from 'zod';
import { ZAbuseLimits } from './abuse-limits.js';
import { ZCountryCode, ZCurrencyCode, ZKey, ZLocaleTag, ZLocalized } from '../core/schemas.js';

export const ZTermKind = z.object({ key: ZKey, names: ZLocalized }).meta({ id: 'TermKind' });

export const ZListingRules = z
  .object({
    min_images: z.number().int().min(0).max(20).meta({ description: 'Photos needed to go on sale; at least 1 to be valued.' }),
    require_approval: z.boolean(),
    require_category: z.boolean(),
    required_terms: z.array(ZKey).meta({ description: 'Term kinds a listing needs to go on sale.' }),
    valuations: z.boolean(),
    attributes_schema: z.any().optional().meta({ description: "JSON Schema for the marketplace's own listing fields." }),
  })
  .meta({ id: 'ListingRules' });

const ZNames = ZLocalized.optional().meta({ description: 'Per language (`{"en": …, "sv": …}`); `name` is the default language\'s and the fallback.' });
const ZNamed = z.object({
  key: ZKey,
  name: z.string().min(1).max(100),
  names: ZNames,
  about: z.string().max(500).optional(),
  abouts: z.record(z.string(), z.string().min(1).max(500)).optional().meta({ description: 'Per language; `about` is the fallback.' }),
});

const ZBooking = z
  .object({
    horizon_days: z.number().int().min(1).max(120),
    lead_days: z.number().int().min(0).max(30),
    per_window: z.number().int().min(0).optional(),
    time_zone: z
      .string()
      .refine((tz) => Intl.supportedValuesOf('timeZone').includes(tz) || tz === 'UTC', 'Unknown IANA time zone.')
      .optional()
      .meta({ description: 'IANA time zone; default Europe/Stockholm.', default: 'Europe/Stockholm' }),
    weekdays: z.array(z.number().int().min(1).max(7)).min(1),
    windows: z.array(z.object({ key: ZKey, label: z.string().min(1).max(60) })).min(1),
    zones: z.array(ZKey),
  })
  .meta({ id: 'Booking' });

const ZMinor = z.number().int().min(0);

export const ZShippingTable = z
  .object({
    currency: ZCurrencyCode.optional(),
    sizes: z.array(ZNamed),
    zones: z.array(
      z.object({
        key: ZKey,
        name: z.string().min(1).max(100),
        names: ZNames,
        countries: z.array(ZCountryCode).min(1),
        postal_prefixes: z.array(z.string().min(1).max(10)).optional(),
        delivery_time: z.string().max(100).optional(),
        delivery_times: z.record(z.string(), z.string().min(1).max(100)).optional().meta({ description: 'Per language; `delivery_time` is the fallback.' }),
      }),
    ),
    options: z.array(ZNamed).optional(),
    delivery: z
      .record(z.string(), z.record(z.string(), z.record(z.string(), ZMinor)))
      .optional()
      .meta({ description: 'option → size → buyer zone → price in minor units; missing means quoted.' }),
    collection: z
      .record(z.string(), z.record(z.string(), ZMinor))
      .optional()
      .meta({ description: 'size → seller zone → price in minor units; missing means quoted.' }),
    storage_fees: z.record(z.string(), ZMinor).optional().meta({ description: "size → fee per started month, taken from the seller's payout." }),
    free_storage_weeks: z.number().int().min(0).max(104).optional(),
    booking: ZBooking.optional(),
  })
  .meta({ id: 'ShippingTable' });

export type ShippingTableBody = z.infer<typeof ZShippingTable>;

export const ZMarketplace = z
  .object({
    id: z.string(),
    name: z.string(),
    slug: z.string(),
    currencies: z.array(z.string()).meta({ description: 'ISO 4217; the first is the default. Empty until chosen.' }),
    locales: z.array(z.string()).meta({ description: 'BCP 47 language tags; the first is the default.' }),
    term_kinds: z.array(ZTermKind),
    listings: ZListingRules,
    shipping: ZShippingTable.meta({ description: 'Empty means listings have their own shipping prices.' }),
  })
  .meta({ id: 'Marketplace', description: 'The marketplace the API key belongs to.' });

export type MarketplaceBody = z.infer<typeof ZMarketplace>;

/** Console settings file: any subset of PublicBody's settings plus operator-only fields. */
export const ZMarketplaceSettings = z.strictObject({
  name: z.string().min(1).max(100).optional(),
  currencies: z.array(ZCurrencyCode).max(20).optional(),
  locales: z.array(ZLocaleTag).min(1).max(20).optional(),
  term_kinds: z.array(ZTermKind).max(20).optional(),
  listings: ZListingRules.optional(),
  shipping: ZShippingTable.optional(),
  commission_percent: z.number().min(0).max(100).optional(),
  storefront_url: z.url({ protocol: /^https?$/ }).max(500).optional(),
  newsletter_audience_id: z.string().trim().min(1).max(100).nullable().optional().describe('The Resend audience (segment) id newsletter sign-ups are added to when RESEND_API_KEY is set; null clears it.'),
  abuse_limits: ZAbuseLimits.optional().describe('Per-user caps; members left out keep their current value.'),
  payout_service_agreement: z
    .enum(['full', 'recipient'])
    .optional()
    .describe("Stripe Connect service agreement of new sellers in the platform's country: full (default; card_payments with transfers) or recipient (transfers only). Sellers in other countries are always recipient."),
  alert_email: z.email().max(254).nullable().optional().describe('Where the team is emailed about what needs it (a payout the provider refused for good); null: the log and the console only.'),
});
export type MarketplaceSettings = z.infer<typeof ZMarketplaceSettings>;
