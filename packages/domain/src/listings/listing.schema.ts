import { z } from 'zod';
import { LISTING_STATUSES } from '@hm/db/entities';
import { currentMarketplace } from '../core/request-scope.js';
import { MAX_AMOUNT } from '../core/money.js';
import { ZCountryCode, ZCursor, ZDateTime, ZId, pageLimit } from '../core/schemas.js';

/** Selling: the spec's ListingBody, ListingInputBody and nested shapes. */

/** A currency of the calling marketplace (checked with the other fields). */
export const ZMarketplaceCurrency = z
  .string()
  .superRefine((code, ctx) => {
    const m = currentMarketplace();
    if (!m || m.currencies.includes(code)) return;
    ctx.addIssue({ code: 'custom', message: `Must be one of the marketplace's currencies: ${m.currencies.join(', ') || 'none chosen yet'}.` });
  })
  .meta({ description: "ISO 4217; one of the marketplace's currencies." });

export const ZMoney = z.object({ amount: z.number().int().min(0).meta({ description: 'Minor units.' }), currency: z.string() }).meta({ id: 'Money' });
/** An amount a seller or the team sets: at most the provider's limit for one payment (core/money.ts). */
export const ZAmountInput = z.number().int().min(0).max(MAX_AMOUNT);
const ZMoneyInput = z.strictObject({ amount: ZAmountInput, currency: ZMarketplaceCurrency });

export const ZPriceStep = z
  .object({
    months: z.number().int().min(1).max(60),
    amount: z.number().int().min(1),
    done: z.boolean().optional().meta({ description: 'The drop has been applied (or its date came with the price already at or below it, which it leaves as is).' }),
    on: ZDateTime.optional().meta({ description: 'When it applies; present once the listing is on sale.' }),
  })
  .meta({ id: 'PriceStep' });

const ZPriceStepInput = z.strictObject({
  months: z.number().int().min(1).max(60).meta({ description: 'Months after the schedule starts (on sale, or changed while on sale).' }),
  amount: ZAmountInput.min(1).meta({ description: 'New price, minor units of the price currency; below the price it follows (the price, then the step before).' }),
});

/** Steps: later and lower each time (and below the price: `stepsNotBelowPrice`, where the price is known). */
export const ZPriceScheduleInput = z
  .array(ZPriceStepInput)
  .max(24)
  .superRefine((steps, ctx) => {
    steps.forEach((s, i) => {
      const prev = steps[i - 1];
      if (!prev) return;
      if (s.months <= prev.months) ctx.addIssue({ code: 'custom', path: [i, 'months'], message: 'Each step must come later than the one before.' });
      if (s.amount >= prev.amount) ctx.addIssue({ code: 'custom', path: [i, 'amount'], message: 'Each step must be lower than the one before (prices fall).' });
    });
  });

export const ZLocation = z
  .object({ city: z.string().optional(), country: z.string().optional(), postal_code: z.string().optional() })
  .meta({ id: 'Location' });
const ZLocationInput = z.strictObject({ city: z.string().max(100).optional(), country: ZCountryCode.optional(), postal_code: z.string().max(20).optional() });

const ZShipping = z.object({
  price: z.number().int().min(0).optional().meta({ description: 'First item, minor units of the price currency; omitted: ask for a quote.' }),
  additional_item_price: z.number().int().min(0).optional(),
});
export const ZDelivery = z
  .object({ buyer_arranged: z.boolean().optional(), pickup: z.boolean().optional(), shipping: ZShipping.optional() })
  .meta({ id: 'Delivery' });
const ZDeliveryInput = z.strictObject({
  buyer_arranged: z.boolean().optional(),
  pickup: z.boolean().optional(),
  shipping: z.strictObject({ price: ZAmountInput.optional(), additional_item_price: ZAmountInput.optional() }).optional(),
});

export const ZImage = z
  .object({
    id: ZId,
    status: z.enum(['processing', 'ready', 'failed']),
    width: z.number().int().optional(),
    height: z.number().int().optional(),
    urls: z
      .object({ thumb: z.string(), medium: z.string(), large: z.string() })
      .optional()
      .meta({ description: 'Present once ready: thumb (400 px square), medium (800 px), large (1600 px); cacheable forever.' }),
    failure_reason: z
      .string()
      .optional()
      .meta({ description: "Why the photo could not be used, in words for the seller (status `failed`; the seller's own listing views only). Delete it and upload the photo again." }),
  })
  .meta({ id: 'Image' });

const ZTermRef = z.object({ id: z.string(), name: z.string(), slug: z.string(), descriptions: z.record(z.string(), z.string()).optional() }).meta({ id: 'TermRef' });
const ZSiteRef = z
  .object({ id: z.string(), kind: z.enum(['showroom', 'warehouse']), name: z.string(), city: z.string().optional(), buyer_pickup: z.boolean().optional() })
  .meta({ id: 'SiteRef' });

export const ZListing = z
  .object({
    id: ZId,
    seller_id: ZId,
    title: z.string(),
    description: z.string(),
    locale: z.string().meta({ description: 'Language the seller wrote in.' }),
    status: z.enum(LISTING_STATUSES),
    attributes: z.record(z.string(), z.unknown()).meta({ description: "The marketplace's own fields." }),
    category_id: z.string().optional(),
    terms: z.record(z.string(), ZTermRef).meta({ description: 'Keyed by term kind, e.g. brand.' }),
    price: ZMoney.optional().meta({ description: "Base price in the seller's currency." }),
    price_schedule: z.array(ZPriceStep).optional().meta({ description: 'Price falls in these steps while on sale.' }),
    offer: ZMoney.optional().meta({ description: 'Price the marketplace offers (status valuation_offered).' }),
    offer_note: z.string().optional(),
    offer_schedule: z.array(ZPriceStep).optional(),
    review_note: z.string().optional().meta({ description: 'Why the listing was denied.' }),
    stock: z.number().int(),
    units_sold: z.number().int().optional().meta({ description: "The seller's view only: units in paid orders (purchased, delivered, received, disputed). With `stock` 0 and nothing reserved, the listing is sold." }),
    units_reserved: z
      .number()
      .int()
      .optional()
      .meta({ description: "The seller's view only: units held by orders awaiting payment; they come back to `stock` if the payment window ends." }),
    favorite_count: z.number().int(),
    images: z.array(ZImage).meta({ description: 'In display order; the first is the main photo.' }),
    location: ZLocation,
    delivery: ZDelivery,
    shipping_size: z.string().optional(),
    custody: z.enum(['seller', 'collecting', 'stored']),
    fulfilment: z.enum(['seller', 'marketplace']).meta({ description: 'Who moves it to the buyer.' }),
    site: ZSiteRef.optional(),
    wants_storage: z.boolean().optional(),
    stored_at: ZDateTime.optional(),
    published_at: ZDateTime.optional(),
    closed_at: ZDateTime.optional(),
    created_at: ZDateTime,
    updated_at: ZDateTime,
  })
  .meta({ id: 'Listing' });
export type ListingBody = z.infer<typeof ZListing>;

export const ZListingPage = z
  .object({ items: z.array(ZListing), next_cursor: z.string().optional().meta({ description: 'Absent on the last page.' }) })
  .meta({ id: 'ListingPage' });

/** ListingInputBody: create and replace (the whole content). */
export const ZListingInput = z
  .strictObject({
    title: z.string().max(140).optional(),
    description: z.string().max(10000).optional(),
    locale: z
      .string()
      .max(35)
      .superRefine((l, ctx) => {
        const m = currentMarketplace();
        if (m && !m.locales.includes(l)) ctx.addIssue({ code: 'custom', message: `Must be one of the marketplace's languages: ${m.locales.join(', ')}.` });
      })
      .optional()
      .meta({ description: 'Marketplace default when omitted.' }),
    price: ZMoneyInput.optional().meta({ description: 'Omitted when asking for a valuation.' }),
    price_schedule: ZPriceScheduleInput.optional().meta({
      description:
        'Price drops while on sale (months after going on sale, strictly falling amounts, the first below the price). Sent back unchanged it keeps its progress and is not checked again; sent back unchanged with a price in another currency, it is dropped.',
    }),
    category_id: z.uuid().optional(),
    terms: z
      .record(z.string(), z.uuid())
      .superRefine((terms, ctx) => {
        const m = currentMarketplace();
        if (!m) return;
        for (const kind of Object.keys(terms)) {
          if (!m.termKinds.some((k) => k.key === kind)) ctx.addIssue({ code: 'custom', path: [kind], message: `Not a term kind of this marketplace (${m.termKinds.map((k) => k.key).join(', ') || 'none'}).` });
        }
      })
      .optional()
      .meta({ description: 'Term kind → term id.' }),
    attributes: z.record(z.string(), z.unknown()).optional().meta({ description: "Should match the marketplace's `attributes_schema` (checked when publishing)." }),
    location: ZLocationInput.optional(),
    delivery: ZDeliveryInput.optional(),
    shipping_size: z.string().max(40).optional().meta({ description: 'Set by the marketplace team; a seller may only send the current value (or omit it).' }),
    stock: z.number().int().min(1).max(10000).optional().meta({ description: '1 when omitted.', default: 1 }),
  })
  .meta({ id: 'ListingInput' });
export type ListingInput = z.infer<typeof ZListingInput>;

export const ZListingRef = z.strictObject({ id: z.uuid() });

export const ZListMyListings = z.strictObject({ limit: pageLimit(100, 24), cursor: ZCursor });

export const ZPublishInput = z.strictObject({
  id: z.uuid(),
  ask_valuation: z.boolean().optional().meta({ description: 'Ask the marketplace to value it (no price needed); only where valuations are on.' }),
  wants_storage: z.boolean().optional().meta({ description: 'Ask the marketplace to collect and store it until it sells.' }),
});

export const ZCounterInput = z.strictObject({ id: z.uuid(), amount: ZAmountInput.min(1).meta({ description: "Minor units in the offer's currency." }) });

export const ZImageOrderInput = z.strictObject({ id: z.uuid(), image_ids: z.array(z.uuid()).min(1).max(20).meta({ description: 'Every image id once; the first becomes the main photo.' }) });

export const ZImageRef = z.strictObject({ id: z.uuid(), image_id: z.uuid() });
