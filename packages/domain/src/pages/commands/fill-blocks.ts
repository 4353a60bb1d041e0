import { CategorySchema, ListingSchema, MediaSchema, SiteSchema, type Media, type PageContent } from '@hm/db/entities';
import type { CommandContext } from '../../core/context.js';
import { loadRelations } from '../../listings/index.js';
import { toShopListing } from '../../listing-search/index.js';
import type { RateBook } from '../../rates/index.js';
import { pickText, textIn } from '../../core/locale.js';
import { LIMITS, type BlockBody, type BlockInput, type PageBody } from '../pages.schema.js';
import { listingsByRules, type GridRule } from '../pages.queries.js';

export function mediaUrls(publicUrl: string, id: string) {
  const base = `${publicUrl.replace(/\/+$/, '')}/v1/media/${id}`;
  return { thumb: `${base}/thumb.jpg`, medium: `${base}/medium.jpg`, large: `${base}/large.jpg`, xlarge: `${base}/xlarge.jpg` };
}

/** An image as storefronts read it; with `locale` (a page's language) `alt` is that language's text, else the default's. */
export function toImageRef(m: Media, publicUrl: string, locale?: string) {
  const alts = m.alts && Object.keys(m.alts).length ? m.alts : undefined;
  return { id: m.id, alt: locale ? textIn(alts, locale, m.alt) : m.alt, ...(alts ? { alts } : {}), width: m.width, height: m.height, urls: mediaUrls(publicUrl, m.id) };
}

export interface FillOptions {
  slug: string;
  locale: string;
  publishedAt?: Date | null;
  currency?: string;
  rates: RateBook;
  publicUrl: string;
}

const HERO_NEWEST = '#hero-newest';

/**
 * A page as the shop reads it: every reference of every block resolved with a fixed number of
 * queries whatever the number of blocks (media, listings by id, all rule grids in one statement,
 * the listings' photos/terms/sites, categories, sites), then each block filled. Blocks with nothing
 * to show are left out; fields a block type does not have are never written out.
 */
export async function fillPage(ctx: CommandContext, content: PageContent, o: FillOptions): Promise<PageBody> {
  const blocks = content.blocks as unknown as BlockInput[];
  const mediaIds = new Set<string>(content.share_image_id ? [content.share_image_id] : []);
  const listingIds = new Set<string>();
  const categoryIds = new Set<string>();
  const siteIds = new Set<string>();
  const rules: GridRule[] = [];
  for (const b of blocks) {
    if ('image_id' in b && b.image_id) mediaIds.add(b.image_id);
    if ('phone_image_id' in b && b.phone_image_id) mediaIds.add(b.phone_image_id);
    if (b.type === 'listing_grid') {
      const limit = b.limit ?? LIMITS.gridDefault;
      if (b.source === 'picked') b.listing_ids?.forEach((id) => listingIds.add(id));
      else if (b.rule) rules.push({ key: b.id, categoryId: b.rule.category_id, sort: b.rule.sort ?? 'newest', termIds: b.rule.term_ids ?? [], limit });
    }
    if ((b.type === 'featured_listing' || (b.type === 'hero' && b.visual === 'listing')) && b.listing_id) listingIds.add(b.listing_id);
    if (b.type === 'hero' && b.visual === 'newest') rules.push({ key: HERO_NEWEST, sort: 'newest', termIds: [], limit: 1 });
    if (b.type === 'category_tiles')
      for (const t of b.tiles) {
        categoryIds.add(t.category_id);
        if (t.image_id) mediaIds.add(t.image_id);
      }
    if (b.type === 'showroom') siteIds.add(b.location_id);
  }

  const [media, ruled, categories, sites] = await Promise.all([
    mediaIds.size ? ctx.em.find(MediaSchema, { id: { $in: [...mediaIds] } }) : [],
    listingsByRules(ctx.em, rules),
    categoryIds.size ? ctx.em.find(CategorySchema, { id: { $in: [...categoryIds] } }) : [],
    siteIds.size ? ctx.em.find(SiteSchema, { id: { $in: [...siteIds] } }) : [],
  ]);
  for (const ids of ruled.values()) ids.forEach((id) => listingIds.add(id));
  const listings = listingIds.size ? await ctx.em.find(ListingSchema, { id: { $in: [...listingIds] } }) : [];
  const rel = await loadRelations(ctx.em, listings);

  const m = ctx.marketplace;
  const imageOf = new Map(media.map((x) => [x.id, toImageRef(x, o.publicUrl, o.locale)]));
  const listingOf = new Map(listings.map((l) => [l.id, l]));
  const shop = (id: string | undefined) => {
    const l = id ? listingOf.get(id) : undefined;
    return l ? { onSale: l.onSale === true, body: toShopListing(l, rel, { marketplace: m, publicUrl: o.publicUrl, rates: o.rates, currency: o.currency }) } : undefined;
  };
  const onSale = (ids: string[], limit: number) =>
    ids
      .map(shop)
      .filter((x) => x?.onSale)
      .slice(0, limit)
      .map((x) => x!.body);
  const categoryOf = new Map(categories.map((c) => [c.id, c]));
  const siteOf = new Map(sites.map((s) => [s.id, s]));
  const img = (id: string | undefined) => (id ? imageOf.get(id) : undefined);
  const some = <T extends object>(x: T) => Object.fromEntries(Object.entries(x).filter(([, v]) => v !== undefined)) as T;

  const filled: BlockBody[] = [];
  for (const b of blocks) {
    const head = { id: b.id, type: b.type };
    let out: BlockBody | undefined;
    switch (b.type) {
      case 'hero': {
        const listing = b.visual === 'listing' ? shop(b.listing_id) : b.visual === 'newest' ? shop(ruled.get(HERO_NEWEST)?.[0]) : undefined;
        const image = b.visual === 'image' || b.visual === undefined ? img(b.image_id) : undefined;
        const shown = some({ heading: b.heading, eyebrow: b.eyebrow, text: b.text, buttons: b.buttons?.length ? b.buttons : undefined, search: b.search || undefined, image, listing: listing?.onSale ? listing.body : undefined });
        if (Object.keys(shown).length) out = some({ ...head, ...shown, search: b.search, visual: b.visual, image_id: b.image_id, listing_id: b.listing_id });
        break;
      }
      case 'links':
        out = { ...head, links: b.links };
        break;
      case 'listing_grid': {
        const limit = b.limit ?? LIMITS.gridDefault;
        const found = onSale(b.source === 'picked' ? (b.listing_ids ?? []) : (ruled.get(b.id) ?? []), limit);
        if (found.length) out = some({ ...head, heading: b.heading, link: b.link, limit, source: b.source, listing_ids: b.listing_ids, rule: b.rule, listings: found });
        break;
      }
      case 'banner': {
        const image = img(b.image_id);
        if (b.heading || b.text || image) out = some({ ...head, heading: b.heading, text: b.text, link: b.link, image, image_id: b.image_id, phone_image: img(b.phone_image_id), phone_image_id: b.phone_image_id });
        break;
      }
      case 'category_tiles': {
        const tiles = b.tiles.flatMap((t) => {
          const c = categoryOf.get(t.category_id);
          if (!c) return [];
          const category = { id: c.id, name: pickText(c.names, o.locale, m) ?? c.slug, slug: c.slug };
          return [some({ category_id: t.category_id, category, image: img(t.image_id), image_id: t.image_id, label: t.label })];
        });
        if (tiles.length) out = some({ ...head, heading: b.heading, tiles });
        break;
      }
      case 'image_text': {
        const image = img(b.image_id);
        if (b.heading || b.text || image) out = some({ ...head, heading: b.heading, eyebrow: b.eyebrow, text: b.text, link: b.link, image, image_id: b.image_id, image_side: b.image_side });
        break;
      }
      case 'featured_listing': {
        const l = shop(b.listing_id);
        const whenSold = b.when_sold ?? 'hide';
        if (l && (l.onSale || whenSold === 'show')) out = some({ ...head, heading: b.heading, text: b.text, listing_id: b.listing_id, when_sold: whenSold, listing: l.body, on_sale: l.onSale });
        break;
      }
      case 'cta':
        if (b.heading || b.text || b.buttons?.length) out = some({ ...head, heading: b.heading, text: b.text, buttons: b.buttons, tone: b.tone });
        break;
      case 'newsletter':
        out = some({ ...head, heading: b.heading, text: b.text, button_label: b.button_label });
        break;
      case 'promises':
        out = { ...head, items: b.items };
        break;
      case 'showroom': {
        const s = siteOf.get(b.location_id);
        if (s?.active) {
          const location = { name: s.name, kind: s.kind, line1: s.line1, postal_code: s.postalCode, city: s.city, country: s.country, opening_hours: textIn(s.openingHoursByLanguage, o.locale, s.openingHours) ?? '', buyer_pickup: s.buyerPickup };
          out = some({ ...head, heading: b.heading, text: b.text, location_id: b.location_id, location });
        }
        break;
      }
      case 'text':
        out = { ...head, body: b.body };
        break;
      case 'faq':
        out = some({ ...head, heading: b.heading, questions: b.questions });
        break;
    }
    if (out) filled.push(out);
  }
  const share = img(content.share_image_id);
  return {
    slug: o.slug,
    title: content.title,
    description: content.description,
    locale: o.locale,
    blocks: filled,
    ...(o.publishedAt ? { published_at: o.publishedAt.toISOString() } : {}),
    ...(share ? { share_image: share } : {}),
  };
}
