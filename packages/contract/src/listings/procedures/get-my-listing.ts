import { sessionProcedure } from '../../trpc.js';
import { ZListing, ZListingRef } from '@hm/domain/listings';
import { findOwnListing } from '@hm/domain/listings';
import { TAG, ownListingBody } from './_shared.js';

export const getMyListing = sessionProcedure
  .meta({ auth: 'session', openapi: { operationId: 'getMyListing', method: 'GET', path: '/me/listings/{id}', tags: [TAG], summary: 'One of your listings', description: "Any status. Another user's listing is 404." } })
  .input(ZListingRef)
  .output(ZListing)
  .query(async ({ ctx, input }) => ownListingBody(ctx, await findOwnListing(ctx.em, ctx.user.id, input.id)));
