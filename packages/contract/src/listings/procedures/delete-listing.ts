import { z } from 'zod';
import { sessionProcedure } from '../../trpc.js';
import { ZListingRef } from '@hm/domain/listings';
import { deleteListing as deleteListingCommand } from '@hm/domain/listings';
import { TAG } from './_shared.js';

export const deleteListing = sessionProcedure
  .meta({
    auth: 'session',
    successStatus: 204,
    openapi: {
      operationId: 'deleteListing',
      method: 'DELETE',
      path: '/me/listings/{id}',
      tags: [TAG],
      summary: 'Delete a draft',
      description: 'Removes a draft that was never on sale, with its photos. A listing that was ever on sale is closed instead. 409 for listings under review or denied.',
    },
  })
  .input(ZListingRef)
  .output(z.void())
  .mutation(async ({ ctx, input }) => {
    await deleteListingCommand(ctx, input.id);
  });
