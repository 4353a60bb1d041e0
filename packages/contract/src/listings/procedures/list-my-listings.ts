import { sessionProcedure } from '../../trpc.js';
import { ZListMyListings, ZListingPage } from '@hm/domain/listings';
import { listOwnListings } from '@hm/domain/listings';
import { loadRelations, toListingBody, unitsOf } from '@hm/domain/listings';
import { TAG } from './_shared.js';

export const listMyListings = sessionProcedure
  .meta({ auth: 'session', openapi: { operationId: 'listMyListings', method: 'GET', path: '/me/listings', tags: [TAG], summary: "The signed-in seller's listings", description: 'Every status, latest change first; cursor-paged.' } })
  .input(ZListMyListings)
  .output(ZListingPage)
  .query(async ({ ctx, input }) => {
    const { items, nextCursor } = await listOwnListings(ctx, input);
    const [rel, units] = await Promise.all([loadRelations(ctx.em, items), unitsOf(ctx.em, items.map((l) => l.id))]);
    return { items: items.map((l) => toListingBody(l, rel, { marketplace: ctx.marketplace, publicUrl: ctx.publicUrl, own: true, units })), ...(nextCursor ? { next_cursor: nextCursor } : {}) };
  });
