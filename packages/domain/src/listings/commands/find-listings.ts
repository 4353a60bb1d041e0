import { ListingSchema, type Listing } from '@hm/db/entities';
import type { EntityManager } from '@hm/db/orm';
import { LockMode } from '@mikro-orm/core';
import type { UserCommandContext } from '../../context.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import { decodeCursor, encodeCursor } from '../../shared/cursor.js';

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
  const fingerprint = `me-listings:${ctx.marketplace.id}:${ctx.user.id}`;
  let after: { at: Date; id: string } | undefined;
  if (input.cursor) {
    const [at, id] = decodeCursor(input.cursor, fingerprint);
    if (typeof at !== 'string' || typeof id !== 'string' || Number.isNaN(Date.parse(at))) {
      throw new ValidationError([{ location: 'cursor', message: 'Malformed cursor.', value: input.cursor }]);
    }
    after = { at: new Date(at), id };
  }
  const rows = await ctx.em.find(
    ListingSchema,
    {
      sellerId: ctx.user.id,
      ...(after ? { $or: [{ updatedAt: { $lt: after.at } }, { updatedAt: after.at, id: { $lt: after.id } }] } : {}),
    },
    { orderBy: { updatedAt: 'desc', id: 'desc' }, limit: input.limit + 1 },
  );
  const items = rows.slice(0, input.limit);
  const last = items[items.length - 1];
  return { items, ...(rows.length > input.limit && last ? { nextCursor: encodeCursor(fingerprint, [last.updatedAt.toISOString(), last.id]) } : {}) };
}
