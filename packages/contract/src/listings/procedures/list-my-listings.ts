import { sessionProcedure } from '../../trpc.js';
import { ZListMyListings, ZListingPage } from '@hm/domain/listings';
import { listOwnListings } from '@hm/domain/listings';
import { loadRelations, toListingBody } from '@hm/domain/listings';
import { TAG } from './_shared.js';

export const listMyListings = sessionProcedure
  .meta({ auth: 'session', openapi: { operationId: 'listMyListings', method: 'GET', path: '/me/listings', tags: [TAG], summary: "The signed-in seller's listings", description: 'Every status, latest change first; cursor-paged.' } })
  .input(ZListMyListings)
  .output(ZListingPage)
  .query(async ({ ctx, input }) => {
    const { items, nextCursor } = await listOwnListings(ctx, input);
    const rel = await loadRelations(ctx.em, items);
    return { items: items.map((l) => toListingBody(l, rel, { marketplace: ctx.marketplace, publicUrl: ctx.publicUrl, own: true })), ...(nextCursor ? { next_cursor: nextCursor } : {}) };
  });
