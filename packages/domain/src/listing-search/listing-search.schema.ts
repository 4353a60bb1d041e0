import { z } from 'zod';
import { currentMarketplace } from '../core/request-scope.js';
import { ZCursor, pageLimit } from '../core/schemas.js';
import { ZListing, ZMoney } from '../listings/index.js';

/** The shop's view of listings: search, one listing, favourites. */

/** A query parameter that may be repeated: a single value arrives as a string. */
const repeated = <T extends z.ZodType>(item: T) => z.preprocess((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]), z.array(item).max(50));

export const ZShopCurrency = z
  .string()
  .superRefine((code, ctx) => {
    const m = currentMarketplace();
    if (m && !m.currencies.includes(code)) ctx.addIssue({ code: 'custom', message: `Must be one of the marketplace's currencies: ${m.currencies.join(', ')}.` });
  })
  .optional()
  .meta({ description: "Adds `display_price` in this currency (one of the marketplace's)." });

export const SORTS = ['relevance', 'newest', 'price_asc', 'price_desc', 'popular'] as const;

export const ZSearchInput = z.strictObject({
  limit: pageLimit(100, 24),
  cursor: ZCursor,
  q: z.string().max(200).optional().meta({ description: 'Words matching title, catalogue terms and description; accents and case ignored; each word matches word beginnings; every word must match.' }),
  sort: z.enum(SORTS).optional().meta({ description: '`relevance` (default with `q`: title matches, then term matches, then description; newest first within each), `newest` (default without `q`), `price_asc`, `price_desc` (compared across currencies at the day\'s rate), `popular` (most saved).' }),
  category: z.uuid().optional().meta({ description: 'This category and its subcategories.' }),
  term: repeated(z.uuid()).meta({ description: 'Catalogue term ids; repeat for several: any of the terms given within a kind, all kinds combined.' }),
  seller: z.uuid().optional(),
  attr: repeated(z.string().regex(/^[A-Za-z0-9_-]{1,40}:.{1,100}$/, 'Must be key:value.')).meta({ description: '`key:value` of the marketplace\'s own fields; repeat: any of the values per key, all keys combined.' }),
  min_price: z.coerce.number().int().min(0).optional().meta({ description: "Minor units of `currency` when given, else of the marketplace's default currency; compared across currencies at the day's rate." }),
  max_price: z.coerce.number().int().min(0).optional().meta({ description: "Minor units of `currency` when given, else of the marketplace's default currency." }),
  currency: ZShopCurrency,
  facets: z
    .string()
    .max(500)
    .optional()
    .meta({
      description:
        'Adds `facets` to the page: a comma-separated list of `category`, `term:<kind>` (a term kind of the marketplace) and `price`. Each facet counts the listings matching every other filter (a facet\'s own filter does not narrow its counts), exact up to 10 000 listings, above that estimated within ±5 % (`facets_are_estimates`). Without it nothing extra is counted.',
      example: 'category,term:brand,term:condition,price',
    }),
});
export type SearchInput = z.infer<typeof ZSearchInput>;

export const ZShopListing = ZListing.extend({
  display_price: ZMoney.optional().meta({ description: 'Price in the requested `currency`, converted at the day\'s rate; approximate: the final amount is set at checkout.' }),
  favorited: z.boolean().optional().meta({ description: 'Whether the signed-in user saved it; present only when `X-User-Session` is sent.' }),
  seller_blocked: z.boolean().optional().meta({ description: 'The seller is blocked, so the listing is out of the shop.' }),
  seller: z
    .object({ id: z.string(), display_name: z.string().meta({ description: "The seller's public name; may be empty." }) })
    .optional()
    .meta({ id: 'SellerRef', description: 'Who sells it; present on single listings only (`GET /v1/listings/{id}`).' }),
}).meta({ id: 'ShopListing' });

const ZFacetCount = z.number().int().meta({ description: 'Listings on sale matching the query with this choice in place of the facet\'s own filter (what `total` would say).' });
export const ZFacets = z
  .object({
    categories: z
      .array(z.object({ id: z.string(), slug: z.string(), count: ZFacetCount }))
      .optional()
      .meta({ description: 'Categories with matches, each counting its subcategories too (as the `category` filter does), in position order.' }),
    terms: z
      .record(z.string(), z.array(z.object({ id: z.string(), slug: z.string(), count: ZFacetCount })))
      .optional()
      .meta({ description: 'Per requested term kind, its terms with matches (counted as if that kind had no filter: choices within a kind combine with "any of").' }),
    price: z
      .array(
        z.object({
          from: z.number().int().optional().meta({ description: 'Minor units of `currency` (else the default currency), inclusive; absent on the first bucket.' }),
          to: z.number().int().optional().meta({ description: 'Exclusive (the same as `max_price` = to − 1); absent on the last bucket.' }),
          count: ZFacetCount,
        }),
      )
      .optional()
      .meta({ description: 'Up to 6 price buckets with round edges (1, 2, 5 × a power of ten in major units), holding about equal numbers of matches.' }),
  })
  .meta({
    id: 'ListingFacets',
    description: 'Present when `facets` was asked for.',
    example: {
      categories: [{ id: '0193…', slug: 'chairs', count: 31 }],
      terms: { brand: [{ id: '0193…', slug: 'hay', count: 12 }] },
      price: [{ to: 50000, count: 20 }, { from: 50000, to: 100000, count: 44 }, { from: 100000, count: 9 }],
    },
  });

export const ZSearchPage = z
  .object({
    items: z.array(ZShopListing),
    next_cursor: z.string().optional().meta({ description: 'Absent on the last page.' }),
    total: z.number().int().meta({ description: 'Listings matching the filters: exact up to 10 000; above that it may be an estimate within ±5 %, and then `total_is_estimate` is true.' }),
    total_is_estimate: z.literal(true).optional().meta({ description: 'Present (true) when `total` is an estimate: more than 10 000 listings match, estimated from a sample of the listings on sale, within ±5 %.' }),
    did_you_mean: z.string().optional().meta({
      description: "Present when nothing matches `q`: the closest query (words a typo or two away, from the marketplace's own listing titles and term names) that finds listings with the same filters.",
      example: 'chair',
    }),
    facets: ZFacets.optional(),
    facets_are_estimates: z.literal(true).optional().meta({ description: 'Present (true) when some facet counts are estimates: more than 10 000 listings in that facet, estimated from a sample within ±5 %.' }),
  })
  .meta({ id: 'ListingSearchPage' });

export const ZGetListingInput = z.strictObject({ id: z.uuid(), currency: ZShopCurrency });

export const ZFavoritesInput = z.strictObject({ limit: pageLimit(100, 24), cursor: ZCursor, currency: ZShopCurrency });
export const ZFavoritesPage = z
  .object({ items: z.array(ZShopListing), next_cursor: z.string().optional(), total: z.number().int() })
  .meta({ id: 'FavoritesPage' });
