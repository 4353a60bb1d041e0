import { ListingSchema, type Listing } from '@hm/db/entities';
import type { EntityManager } from '@hm/db/orm';
import { LockMode } from '@mikro-orm/core';
import type { ListingStatus } from '@hm/db/entities';
import type { UserCommandContext } from '../../core/context.js';
import { NotFoundError } from '../../core/errors.js';
import { keyset } from '../../core/keyset.js';

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

/** The console's listings (GET /console/v1/listings): every seller's, optionally of one status, latest change first, keyset-paged on (updated_at, id). */
export async function listListingsForTeam(em: EntityManager, marketplaceId: string, input: { status?: ListingStatus | undefined; limit: number; cursor?: string | undefined }): Promise<{ items: Listing[]; nextCursor?: string }> {
  const pages = keyset(`team-listings:${marketplaceId}:${input.status ?? ''}`, ['timestamptz', 'uuid']);
  const after = pages.after(input.cursor);
  const at = after && new Date(after[0]);
  const rows = await em.find(
    ListingSchema,
    {
      ...(input.status ? { status: input.status } : {}),
      ...(after ? { $or: [{ updatedAt: { $lt: at } }, { updatedAt: at, id: { $lt: after[1] } }] } : {}),
    },
    { orderBy: { updatedAt: 'desc', id: 'desc' }, limit: input.limit + 1 },
  );
  return pages.page(rows, input.limit, (l) => [l.updatedAt, l.id]);
}
