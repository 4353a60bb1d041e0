import { z } from 'zod';
import { ListingSchema, MarketplaceSchema, type Listing, type Marketplace } from '@hm/db/entities';
import { crossTenantEm, tenantEm, type EntityManager } from '@hm/db/orm';
import type { Context } from '@hm/domain/core';
import { NotFoundError } from '@hm/domain/core';
import { ZSlug } from '@hm/domain/core';
import { findMarketplaceBySlug } from '@hm/domain/marketplace';
import { listingSeller, loadRelations, toListingBody, type ListingSeller, type TeamListing } from '@hm/domain/listings';
import { shopRelationReads } from '@hm/domain/listing-search';
import { CLI_ACTOR } from '@hm/domain/operators';
import { byConversation } from '@hm/domain/messages';

/** Operators name a marketplace by its slug. */
export const ZMarketplaceRef = z.strictObject({ marketplace: ZSlug.describe('Slug of the marketplace.') });

/** Operators name a listing by its id alone (its marketplace is found from it). */
export const ZListingId = z.strictObject({ id: z.uuid().describe('Listing id.') });

/** The marketplace named by slug and an entity manager scoped to it. */
export async function scoped(ctx: Context, slug: string) {
  const marketplace = await findMarketplaceBySlug(crossTenantEm(ctx.orm), slug);
  return { marketplace, em: tenantEm(ctx.orm, marketplace.id) };
}

/** The listing's marketplace, found from the listing id alone (operators pass ids). */
export async function byListing(ctx: Context, id: string) {
  const found = await crossTenantEm(ctx.orm).findOne(ListingSchema, { id }, { filters: false });
  if (!found) throw new NotFoundError('This listing');
  const marketplace = await crossTenantEm(ctx.orm).findOneOrFail(MarketplaceSchema, { id: found.marketplaceId });
  const em = tenantEm(ctx.orm, marketplace.id);
  return { marketplace, em, cmd: { ...ctx, em, marketplace } };
}

/** The console's view of a listing: the public body plus the commission override and the seller. */
export async function consoleListing(ctx: Context, scope: { em: EntityManager; marketplace: Marketplace }, l: Listing) {
  // after a change too: the ORM's reads, which flush what is pending first
  const seller = await listingSeller(scope.em, l);
  return { listing: bodiesOf(ctx, scope, [l], await loadRelations(scope.em, [l]), () => seller)[0]! };
}

/** The console's view of a page of listings (with their sellers, joined in by the page's statement): their photos, terms and sites read once for the page, not per listing. */
export async function consoleListings(ctx: Context, scope: { em: EntityManager; marketplace: Marketplace }, ls: TeamListing[]) {
  // a read of a page: its photos, terms and sites as plain rows (shop-reads), not hydrated entities
  return bodiesOf(ctx, scope, ls, await loadRelations(scope.em, ls, shopRelationReads(scope.em)), (l) => l.seller);
}

function bodiesOf<L extends Listing>(ctx: Context, scope: { marketplace: Marketplace }, ls: L[], rel: Awaited<ReturnType<typeof loadRelations>>, sellerOf: (l: L) => ListingSeller) {
  return ls.map((l) => ({
    ...toListingBody(l, rel, { marketplace: scope.marketplace, publicUrl: ctx.publicUrl, single: true, own: true }),
    seller: sellerOf(l),
    ...(l.commissionPercent !== null && l.commissionPercent !== undefined ? { commission_percent: Number(l.commissionPercent) } : {}),
  }));
}

/** The scope of a command-line operation: the marketplace, its entity manager, and the actor `cli`. */
export function cliScope(ctx: Context, scope: { em: EntityManager; marketplace: Marketplace }) {
  return { ctx, em: scope.em, marketplace: scope.marketplace, actor: CLI_ACTOR };
}

/** A conversation's marketplace, found from the conversation id alone (404 when there is none). */
export function byConversationId(ctx: Context, id: string) {
  return byConversation(ctx, id);
}
