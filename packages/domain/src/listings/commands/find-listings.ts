import { ListingSchema, type Listing } from '@hm/db/entities';
import type { EntityManager } from '@hm/db/orm';
import { LockMode } from '@mikro-orm/core';
import type { ListingStatus } from '@hm/db/entities';
import type { UserCommandContext } from '../../core/context.js';
import { NotFoundError } from '../../core/errors.js';
import { keyset } from '../../core/keyset.js';
import { teamListingRows, type TeamListing } from '../team-listings.queries.js';

/**
 * A listing of the signed-in seller, locked for the rest of the transaction when asked (every
 * change goes through this, so concurrent changes to one listing queue up instead of racing).
 * Another user's or marketplace's listing is 404, like a missing one.
 */
export async function findOwnListing(em: EntityManager, sellerId: string, id: string, opts: { lock?: boolean } = {}): Promise<Listing> {
  const listing = await em.findOne(ListingSchema, { id, sellerId }, opts.lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
  if (!listing) throw new NotFoundError('This listing');
  return listing;
}

/** GET /v1/me/listings: every status, latest change first, keyset-paged on (updated_at, id). */
export async function listOwnListings(ctx: UserCommandContext, input: { limit: number; cursor?: string }): Promise<{ items: Listing[]; nextCursor?: string }> {
  const pages = keyset(`me-listings:${ctx.marketplace.id}:${ctx.user.id}`, ['timestamptz', 'uuid']);
  const after = pages.after(input.cursor);
  const at = after && new Date(after[0]);
  const rows = await ctx.em.find(
    ListingSchema,
    {
      sellerId: ctx.user.id,
      ...(after ? { $or: [{ updatedAt: { $lt: at } }, { updatedAt: at, id: { $lt: after[1] } }] } : {}),
    },
    { orderBy: { updatedAt: 'desc', id: 'desc' }, limit: input.limit + 1 },
  );
  return pages.page(rows, input.limit, (l) => [l.updatedAt, l.id]);
}

/** Listings the team looks at: of one status, or waiting for the team to book their collection for storage. */
export interface TeamListingFilter {
  status?: ListingStatus | undefined;
  /** the seller asked for storage and the listing is still with them (the team books its collection) */
  toCollect?: boolean | undefined;
}

/** Still in the shop's flow (not a draft, closed or denied): what a collection can be booked for. */
const COLLECTABLE: ListingStatus[] = ['pending_valuation', 'valuation_offered', 'pending_approval', 'published'];

function teamListingWhere(input: TeamListingFilter) {
  return {
    ...(input.status ? { status: input.status } : {}),
    ...(input.toCollect ? { wantsStorage: true, custody: 'seller' as const, ...(input.status ? {} : { status: { $in: COLLECTABLE } }) } : {}),
  };
}

/** The console's listings (GET /console/v1/listings): every seller's, optionally of one status, latest change first, keyset-paged on (updated_at, id); plain rows with their sellers, not entities (teamListingRows). */
export async function listListingsForTeam(em: EntityManager, marketplaceId: string, input: TeamListingFilter & { limit: number; cursor?: string | undefined }): Promise<{ items: TeamListing[]; nextCursor?: string }> {
  const pages = keyset(`team-listings:${marketplaceId}:${input.status ?? ''}${input.toCollect ? ':collect' : ''}`, ['timestamptz', 'uuid']);
  const after = pages.after(input.cursor);
  const rows = await teamListingRows(em, {
    status: input.status,
    ...(input.toCollect ? { wantsStorageWithSeller: true, ...(input.status ? {} : { statuses: COLLECTABLE }) } : {}),
    after: after && [new Date(after[0]), after[1]],
    limit: input.limit + 1,
  });
  return pages.page(rows, input.limit, (l) => [l.updatedAt, l.id]);
}

/** How many listings `listListingsForTeam` would page through for the same filter. */
export function countListingsForTeam(em: EntityManager, input: TeamListingFilter): Promise<number> {
  return em.count(ListingSchema, teamListingWhere(input));
}
