import { CatalogTermSchema, ListingImageSchema, SiteSchema, type CatalogTerm, type Listing, type ListingImage, type Marketplace, type Site } from '@hm/db/entities';
import type { EntityManager } from '@hm/db/orm';
import { pickText } from '../core/locale.js';
import type { ListingBody } from './listing.schema.js';
import { stepDates } from './price-schedule.js';

/** What a listing body needs besides the row: its photos, terms and site, loaded for a page at once. */
export interface ListingRelations {
  images: Map<string, ListingImage[]>;
  terms: Map<string, CatalogTerm>;
  sites: Map<string, Site>;
}

/** How loadRelations reads photos (in their order), terms and sites by id. */
export interface RelationReads {
  images(listingIds: string[]): Promise<ListingImage[]>;
  terms(ids: string[]): Promise<CatalogTerm[]>;
  sites(ids: string[]): Promise<Site[]>;
}

/** Through the entity manager (its finds flush pending changes first). */
const entityReads = (em: EntityManager): RelationReads => ({
  images: (ids) => em.find(ListingImageSchema, { listingId: { $in: ids } }, { orderBy: { position: 'asc', createdAt: 'asc' } }),
  terms: (ids) => em.find(CatalogTermSchema, { id: { $in: ids } }),
  sites: (ids) => em.find(SiteSchema, { id: { $in: ids } }),
});

/** `reads`: the shop's reads pass plain SQL (listing-search/shop-reads.queries.ts). */
export async function loadRelations(em: EntityManager, listings: Listing[], reads: RelationReads = entityReads(em)): Promise<ListingRelations> {
  const ids = listings.map((l) => l.id);
  const termIds = [...new Set(listings.flatMap((l) => Object.values(l.terms)))];
  const siteIds = [...new Set(listings.map((l) => l.siteId).filter((s): s is string => !!s))];
  const [images, terms, sites] = await Promise.all([
    ids.length ? reads.images(ids) : [],
    termIds.length ? reads.terms(termIds) : [],
    siteIds.length ? reads.sites(siteIds) : [],
  ]);
  const byListing = new Map<string, ListingImage[]>();
  for (const img of images) byListing.set(img.listingId, [...(byListing.get(img.listingId) ?? []), img]);
  return { images: byListing, terms: new Map(terms.map((t) => [t.id, t])), sites: new Map(sites.map((s) => [s.id, s])) };
}

export interface MapOptions {
  marketplace: Marketplace;
  /** public URL of the API, for image URLs */
  publicUrl: string;
  /** single listings carry term descriptions */
  single?: boolean;
  /** the seller's (or the team's) own view: a failed photo says why (`failure_reason`) */
  own?: boolean;
  /** the seller's view: units sold and reserved per listing (listings.queries.ts unitsOf) */
  units?: Map<string, { sold: number; reserved: number }>;
}

/** Who moves the item to the buyer: the marketplace once it stores it, else the seller. */
export const fulfilmentOf = (l: Listing): 'seller' | 'marketplace' => (l.custody === 'stored' ? 'marketplace' : 'seller');

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : undefined);

export function imageUrls(publicUrl: string, imageId: string) {
  const base = `${publicUrl.replace(/\/+$/, '')}/v1/images/${imageId}`;
  return { thumb: `${base}/thumb.jpg`, medium: `${base}/medium.jpg`, large: `${base}/large.jpg` };
}

export function toImageBody(img: ListingImage, publicUrl: string, opts: { own?: boolean } = {}) {
  return {
    id: img.id,
    status: img.status,
    ...(img.status === 'ready' ? { width: img.width!, height: img.height!, urls: imageUrls(publicUrl, img.id) } : {}),
    ...(opts.own && img.status === 'failed' && img.error ? { failure_reason: img.error } : {}),
  };
}

/** The one place a listing row becomes a ListingBody. */
export function toListingBody(l: Listing, rel: ListingRelations, o: MapOptions): ListingBody {
  const money = (amount: number | null | undefined, currency: string | null | undefined) => (amount !== null && amount !== undefined && currency ? { amount, currency } : undefined);
  const dates = stepDates(l);
  const terms: ListingBody['terms'] = {};
  for (const [kind, id] of Object.entries(l.terms)) {
    const t = rel.terms.get(id);
    if (!t) continue;
    terms[kind] = {
      id: t.id,
      name: pickText(t.names, l.locale, o.marketplace) ?? t.slug,
      slug: t.slug,
      ...(o.single ? { descriptions: t.descriptions } : {}),
    };
  }
  const site = l.siteId ? rel.sites.get(l.siteId) : undefined;
  const price = money(l.priceAmount, l.priceCurrency);
  const offer = money(l.offerAmount, l.offerCurrency);
  return {
    id: l.id,
    seller_id: l.sellerId,
    title: l.title,
    description: l.description,
    locale: l.locale,
    status: l.status,
    attributes: l.attributes,
    ...(l.categoryId ? { category_id: l.categoryId } : {}),
    terms,
    ...(price ? { price } : {}),
    ...(l.priceSchedule?.length
      ? { price_schedule: l.priceSchedule.map((s, i) => ({ months: s.months, amount: s.amount, done: s.done ?? false, ...(dates[i] ? { on: dates[i]!.toISOString() } : {}) })) }
      : {}),
    ...(offer ? { offer } : {}),
    ...(l.offerNote ? { offer_note: l.offerNote } : {}),
    ...(l.offerSchedule?.length ? { offer_schedule: l.offerSchedule.map((s) => ({ months: s.months, amount: s.amount })) } : {}),
    ...(l.reviewNote ? { review_note: l.reviewNote } : {}),
    stock: l.stock,
    ...(o.units ? { units_sold: o.units.get(l.id)?.sold ?? 0, units_reserved: o.units.get(l.id)?.reserved ?? 0 } : {}),
    favorite_count: l.favoriteCount,
    images: (rel.images.get(l.id) ?? []).map((img) => toImageBody(img, o.publicUrl, { own: o.own })),
    location: l.location,
    delivery: l.delivery,
    ...(l.shippingSize ? { shipping_size: l.shippingSize } : {}),
    custody: l.custody,
    fulfilment: fulfilmentOf(l),
    ...(site ? { site: { id: site.id, kind: site.kind, name: site.name, city: site.city, buyer_pickup: site.buyerPickup } } : {}),
    ...(l.wantsStorage ? { wants_storage: true } : {}),
    ...(iso(l.storedAt) ? { stored_at: iso(l.storedAt) } : {}),
    ...(iso(l.publishedAt) ? { published_at: iso(l.publishedAt) } : {}),
    ...(iso(l.closedAt) ? { closed_at: iso(l.closedAt) } : {}),
    created_at: l.createdAt.toISOString(),
    updated_at: l.updatedAt.toISOString(),
  };
}
