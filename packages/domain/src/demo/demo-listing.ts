import { CatalogTermSchema, CategorySchema, ListingImageSchema, SiteSchema, type Listing, type Marketplace, type User } from '@hm/db/entities';
import { tenantEm, type MikroORM } from '@hm/db/orm';
import type { CommandContext, Ports, UserCommandContext } from '../core/context.js';
import { saveFavorite } from '../listing-search/index.js';
import { addListingImage, deleteListingImage } from '../listings/index.js';
import { publishListing } from '../listings/index.js';
import { approveListing, setCustody, setShippingSize } from '../listings/index.js';
import { createListing } from '../listings/index.js';
import { ZListingInput } from '../listings/index.js';
import { withMarketplace } from '../core/request-scope.js';
import { renderPhoto } from './demo-photos.js';
import type { ListingPlan } from './demo-plans.js';
// the listing table's seller notices (approving) are filled by the flows
import '../flows/index.js';

/**
 * One demo listing's steps, each through the commands a seller's or the team's request runs (the
 * same rules, jobs, search document and counts): a draft, its photos uploaded as a seller uploads
 * them (the worker makes their sizes), then — photos ready — publish, the team's storage, favourites.
 * Every step can run again after an interrupted seed and does only what is still missing.
 */
export interface DemoShop {
  orm: MikroORM;
  ports: Ports;
  marketplace: Marketplace;
  people: Map<string, User>;
  categories: Map<string, string>;
  /** `kind:slug` → term id */
  terms: Map<string, string>;
  showroomId: string | undefined;
}

/** The catalogue ids the plans name by slug, and the showroom. */
export async function loadCatalogue(orm: MikroORM, marketplace: Marketplace) {
  const em = tenantEm(orm, marketplace.id);
  const [categories, terms, showroom] = await Promise.all([
    em.find(CategorySchema, {}, { fields: ['id', 'slug'] }),
    em.find(CatalogTermSchema, {}, { fields: ['id', 'kind', 'slug'] }),
    em.findOne(SiteSchema, { kind: 'showroom' }, { fields: ['id'], orderBy: { createdAt: 'asc' } }),
  ]);
  return {
    categories: new Map(categories.map((c) => [c.slug, c.id])),
    terms: new Map(terms.map((t) => [`${t.kind}:${t.slug}`, t.id])),
    showroomId: showroom?.id,
  };
}

/** A fresh entity manager per step: nothing piles up in one identity map over a few hundred steps. */
const team = (s: DemoShop): CommandContext => ({ ...s.ports, em: tenantEm(s.orm, s.marketplace.id), marketplace: s.marketplace });
const as = (s: DemoShop, person: string): UserCommandContext => ({ ...team(s), user: s.people.get(person)! });

/** The draft, with its content checked by the API's own input schema; shipping listings get their size from the team. */
export async function draftListing(s: DemoShop, plan: ListingPlan): Promise<Listing> {
  const id = (map: Map<string, string>, key: string) => {
    const found = map.get(key);
    if (!found) throw new Error(`The demo marketplace has no "${key}" (its catalogue was changed?).`);
    return found;
  };
  const input = withMarketplace(s.marketplace, () =>
    ZListingInput.parse({
      ...plan.content,
      category_id: id(s.categories, plan.category),
      terms: { brand: id(s.terms, `brand:${plan.terms.brand}`), condition: id(s.terms, `condition:${plan.terms.condition}`) },
    }),
  );
  const listing = await createListing(as(s, plan.seller.key), input);
  return ensureShippingSize(s, plan, listing);
}

export async function ensureShippingSize<L extends Pick<Listing, 'id' | 'shippingSize'>>(s: DemoShop, plan: ListingPlan, listing: L): Promise<L | Listing> {
  if (!plan.shippingSize || listing.shippingSize === plan.shippingSize) return listing;
  return setShippingSize(team(s), listing.id, plan.shippingSize);
}

/**
 * Uploads the photos the draft does not have yet (after an interruption, only the rest), as the
 * seller's upload does: original to the image store, `process-image` job. A photo that failed is
 * deleted and drawn again. Answers how many were uploaded.
 */
export async function uploadMissingPhotos(s: DemoShop, plan: ListingPlan, listingId: string): Promise<number> {
  const seller = as(s, plan.seller.key);
  const images = await seller.em.find(ListingImageSchema, { listingId }, { orderBy: { position: 'asc' } });
  for (const failed of images.filter((i) => i.status === 'failed')) await deleteListingImage(as(s, plan.seller.key), listingId, failed.id);
  const have = images.filter((i) => i.status !== 'failed').length;
  for (let k = have; k < plan.photos.count; k++) {
    await addListingImage(as(s, plan.seller.key), listingId, await renderPhoto(plan.photos.subject, k));
  }
  return Math.max(0, plan.photos.count - have);
}

/** Photos of each listing by status (to know which drafts can go on sale). */
export async function photoStates(s: DemoShop, listingIds: string[]): Promise<Map<string, { ready: number; processing: number; failed: number }>> {
  const rows = listingIds.length ? await team(s).em.find(ListingImageSchema, { listingId: { $in: listingIds } }, { fields: ['listingId', 'status'] }) : [];
  const states = new Map(listingIds.map((id) => [id, { ready: 0, processing: 0, failed: 0 }]));
  for (const r of rows) states.get(r.listingId)![r.status]++;
  return states;
}

/** Publish (approved by the team if the marketplace asks for approval), then what follows on sale. */
export async function putOnSale(s: DemoShop, plan: ListingPlan, listingId: string): Promise<void> {
  const published = await publishListing(as(s, plan.seller.key), listingId, { askValuation: false, wantsStorage: plan.stored });
  if (published.status === 'pending_approval') await approveListing(team(s), listingId);
  await afterOnSale(s, plan, { id: listingId, custody: published.custody });
}

/**
 * On sale: the team collects a listing handed over for storage and stores it at the showroom, and
 * people save it. Both are no-ops when done, so a listing published just before an interruption
 * gets them on the next start.
 */
export async function afterOnSale(s: DemoShop, plan: ListingPlan, listing: Pick<Listing, 'id' | 'custody'>): Promise<void> {
  if (plan.stored && s.showroomId && listing.custody === 'seller') {
    await setCustody(team(s), listing.id, 'collecting', s.showroomId);
    await setCustody(team(s), listing.id, 'stored', s.showroomId);
  }
  for (const person of plan.favouritedBy) await saveFavorite(as(s, person), listing.id);
}
