import { z } from 'zod';
import { ZShopCurrency, ZShopListing } from '../listing-search/index.js';
import { ZDateTime, ZLocaleQuery } from '../core/schemas.js';

/**
 * Content pages (spec: "Content page", "Content pages and media", Limits → Page blocks). Two sides:
 * what an operator writes (`ZPageDraft`: blocks with ids and references, checked as a whole) and
 * what a storefront reads (`ZPage`: blocks filled with live data; blocks with nothing to show left out).
 */

export const BLOCK_TYPES = ['hero', 'links', 'listing_grid', 'banner', 'category_tiles', 'image_text', 'featured_listing', 'cta', 'newsletter', 'promises', 'showroom', 'text', 'faq'] as const;
export type BlockType = (typeof BLOCK_TYPES)[number];

export const LIMITS = { slug: 80, locale: 35, previewToken: 100, label: 60, href: 500, gridMin: 1, gridMax: 24, gridDefault: 8, tiles: 12, links: 8, promises: 6, faq: 40, buttons: 2, blocks: 100 } as const;

/** A shop path (`/…`, not `//…`) or an https address. */
export function isAllowedHref(href: string): boolean {
  if ([...href].some((c) => c.charCodeAt(0) < 0x21 || c.charCodeAt(0) === 0x7f)) return false; // no spaces or control characters
  if (href.startsWith('/')) return !href.startsWith('//') && !href.startsWith('/\\');
  if (!href.startsWith('https://')) return false;
  try {
    return new URL(href).protocol === 'https:';
  } catch {
    return false;
  }
}

const text = (max: number) => z.string().trim().min(1).max(max);
const ZId = z.uuid();

export const ZLinkInput = z.strictObject({
  label: text(LIMITS.label),
  href: z.string().max(LIMITS.href).refine(isAllowedHref, 'Must be a shop path starting with "/" or an https:// address.'),
  style: z.enum(['primary', 'secondary']).optional(),
});

const ZBlockId = z
  .string()
  .min(1)
  .max(40)
  .regex(/^[A-Za-z0-9_-]+$/, 'Letters, digits, "-" and "_" only.');

const heading = text(200).optional();
const eyebrow = text(60).optional();
const plain = text(2000).optional();
const buttons = z.array(ZLinkInput).max(LIMITS.buttons).optional();
const base = <T extends z.core.$ZodLooseShape, K extends BlockType>(type: K, shape: T) => z.strictObject({ id: ZBlockId, type: z.literal(type), ...shape });

export const BLOCK_INPUTS = {
  hero: base('hero', { heading, eyebrow, text: plain, buttons, image_id: ZId.optional(), visual: z.enum(['image', 'listing', 'newest', 'none']).optional(), listing_id: ZId.optional(), search: z.boolean().optional() }),
  links: base('links', { links: z.array(ZLinkInput).min(1).max(LIMITS.links) }),
  listing_grid: base('listing_grid', {
    heading,
    link: ZLinkInput.optional(),
    limit: z.number().int().min(LIMITS.gridMin).max(LIMITS.gridMax).optional(),
    source: z.enum(['picked', 'rule']),
    listing_ids: z.array(ZId).min(1).max(LIMITS.gridMax).optional(),
    rule: z
      .strictObject({
        category_id: ZId.optional(),
        sort: z.enum(['newest', 'price_asc', 'price_desc', 'popular']).optional(),
        term_ids: z.array(ZId).max(20).optional(),
      })
      .optional(),
  }),
  banner: base('banner', { heading, text: plain, link: ZLinkInput.optional(), image_id: ZId.optional(), phone_image_id: ZId.optional() }),
  category_tiles: base('category_tiles', {
    heading,
    tiles: z.array(z.strictObject({ category_id: ZId, image_id: ZId.optional(), label: text(LIMITS.label).optional() })).min(1).max(LIMITS.tiles),
  }),
  image_text: base('image_text', { heading, eyebrow, text: plain, link: ZLinkInput.optional(), image_id: ZId.optional(), image_side: z.enum(['left', 'right']).optional() }),
  featured_listing: base('featured_listing', { heading, text: plain, listing_id: ZId, when_sold: z.enum(['hide', 'show']).optional() }),
  cta: base('cta', { heading, text: plain, buttons, tone: z.enum(['brand', 'light', 'dark']).optional() }),
  newsletter: base('newsletter', { heading, text: plain, button_label: text(LIMITS.label).optional() }),
  promises: base('promises', { items: z.array(z.strictObject({ title: text(100), text: text(500).optional() })).min(1).max(LIMITS.promises) }),
  showroom: base('showroom', { heading, text: plain, location_id: ZId }),
  text: base('text', { body: text(20000) }),
  faq: base('faq', { heading, questions: z.array(z.strictObject({ question: text(300), answer: text(5000) })).min(1).max(LIMITS.faq) }),
} as const;

/** One block as an operator writes it: the fields its type allows, references by id. */
export const ZBlockInput = z
  .discriminatedUnion('type', Object.values(BLOCK_INPUTS) as unknown as [typeof BLOCK_INPUTS.hero, ...(typeof BLOCK_INPUTS)[BlockType][]])
  .superRefine((b, ctx) => {
    if (b.type === 'listing_grid') {
      if (b.source === 'picked' && !b.listing_ids) ctx.addIssue({ code: 'custom', path: ['listing_ids'], message: 'Required when source is "picked".' });
      if (b.source === 'picked' && b.rule) ctx.addIssue({ code: 'custom', path: ['rule'], message: 'Only with source "rule".' });
      if (b.source === 'rule' && !b.rule) ctx.addIssue({ code: 'custom', path: ['rule'], message: 'Required when source is "rule".' });
      if (b.source === 'rule' && b.listing_ids) ctx.addIssue({ code: 'custom', path: ['listing_ids'], message: 'Only with source "picked".' });
    }
    if (b.type === 'hero') {
      if (b.visual === 'image' && !b.image_id) ctx.addIssue({ code: 'custom', path: ['image_id'], message: 'Required when visual is "image".' });
      if (b.visual === 'listing' && !b.listing_id) ctx.addIssue({ code: 'custom', path: ['listing_id'], message: 'Required when visual is "listing".' });
    }
  });
export type BlockInput = z.infer<typeof ZBlockInput>;

/** A page as an operator writes it (`pages put --file`). */
export const ZPageDraft = z.strictObject({
  title: text(140),
  description: z.string().max(500).trim(),
  share_image_id: ZId.optional(),
  blocks: z.array(ZBlockInput).max(LIMITS.blocks),
});
export type PageDraft = z.infer<typeof ZPageDraft>;

// ---------------------------------------------------------------------------------------------
// What storefronts read

export const ZImageRef = z
  .object({
    id: z.string(),
    alt: z.string().meta({ description: "In the page's language when the image has one, else the default language's." }),
    alts: z.record(z.string(), z.string()).optional().meta({ description: 'Alt text per language (`{"en": …, "sv": …}`); `alt` is the fallback.' }),
    width: z.number().int(),
    height: z.number().int(),
    urls: z.object({ thumb: z.string(), medium: z.string(), large: z.string(), xlarge: z.string() }).meta({ description: 'thumb 400 px square, medium 800, large 1600, xlarge 2400; cacheable forever.' }),
  })
  .meta({ id: 'ImageRef' });

export const ZLink = z.object({ label: z.string().max(LIMITS.label), href: z.string().max(LIMITS.href), style: z.enum(['primary', 'secondary']).optional() }).meta({ id: 'Link' });

export const ZShowroomLocation = z
  .object({ name: z.string(), kind: z.enum(['showroom', 'warehouse']), line1: z.string(), postal_code: z.string(), city: z.string(), country: z.string(), opening_hours: z.string().meta({ description: "In the page's language when the site has it, else the default language's." }), buyer_pickup: z.boolean() })
  .meta({ id: 'BlockLocation' });

export const ZBlock = z
  .object({
    id: ZBlockId,
    type: z.string().meta({ description: `One of ${BLOCK_TYPES.map((t) => `\`${t}\``).join(', ')}; render by type and skip types you do not know (more may come).` }),
    heading: z.string().optional(),
    eyebrow: z.string().optional(),
    text: z.string().optional().meta({ description: 'Plain text.' }),
    body: z.string().optional().meta({ description: 'Markdown (text blocks).' }),
    button_label: z.string().optional(),
    buttons: z.array(ZLink).max(LIMITS.buttons).optional(),
    link: ZLink.optional(),
    links: z.array(ZLink).min(1).max(LIMITS.links).optional(),
    image: ZImageRef.optional(),
    phone_image: ZImageRef.optional(),
    image_id: z.string().optional(),
    phone_image_id: z.string().optional(),
    image_side: z.enum(['left', 'right']).optional(),
    items: z.array(z.object({ title: z.string(), text: z.string().optional() })).min(1).max(LIMITS.promises).optional(),
    limit: z.number().int().min(LIMITS.gridMin).max(LIMITS.gridMax).optional().meta({ default: LIMITS.gridDefault }),
    source: z.enum(['picked', 'rule']).optional(),
    listing_ids: z.array(z.string()).optional(),
    rule: z.object({ category_id: z.string().optional(), sort: z.enum(['newest', 'price_asc', 'price_desc', 'popular']).optional(), term_ids: z.array(z.string()).optional() }).optional(),
    listings: z.array(ZShopListing).optional().meta({ description: 'listing_grid: listings on sale, in order.' }),
    listing: ZShopListing.optional(),
    listing_id: z.string().optional(),
    on_sale: z.boolean().optional().meta({ description: 'featured_listing: false when the listing is no longer on sale (shown because `when_sold` is `show`).' }),
    location: ZShowroomLocation.optional(),
    location_id: z.string().optional(),
    questions: z.array(z.object({ question: z.string(), answer: z.string() })).min(1).max(LIMITS.faq).optional(),
    search: z.boolean().optional(),
    tiles: z.array(z.object({ category_id: z.string(), category: z.object({ id: z.string(), name: z.string(), slug: z.string() }), image: ZImageRef.optional(), image_id: z.string().optional(), label: z.string().optional() })).min(1).max(LIMITS.tiles).optional(),
    tone: z.enum(['brand', 'light', 'dark']).optional(),
    visual: z.enum(['image', 'listing', 'newest', 'none']).optional(),
    when_sold: z.enum(['hide', 'show']).optional(),
  })
  .meta({ id: 'Block' });
export type BlockBody = z.infer<typeof ZBlock>;

export const ZPage = z
  .object({
    slug: z.string(),
    title: z.string(),
    description: z.string(),
    locale: z.string(),
    blocks: z.array(ZBlock),
    published_at: ZDateTime.optional().meta({ description: 'Absent on a draft that was never published (preview).' }),
    share_image: ZImageRef.optional(),
  })
  .meta({ id: 'Page' });
export type PageBody = z.infer<typeof ZPage>;

export const ZPublishedPageList = z
  .object({ items: z.array(z.object({ slug: z.string(), locale: z.string(), published_at: ZDateTime }).meta({ id: 'PublishedPage' })) })
  .meta({ id: 'PublishedPageList' });

export const ZPageSlug = z.string().min(1).max(LIMITS.slug).regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'Lower-case letters, digits and single hyphens.');

export const ZGetPageInput = z.strictObject({ slug: z.string().max(LIMITS.slug), locale: ZLocaleQuery, currency: ZShopCurrency });
export const ZPreviewPageInput = z.strictObject({ slug: z.string().max(LIMITS.slug), token: z.string().min(1).max(LIMITS.previewToken), currency: ZShopCurrency });
