import { z } from 'zod';
import { sessionProcedure } from '../../trpc.js';
import { ZListing, ZListingInput } from '@hm/domain/listings';
import { replaceListing as replaceListingCommand } from '@hm/domain/listings';
import { TAG, ownListingBody } from './_shared.js';

export const replaceListing = sessionProcedure
  .meta({
    auth: 'session',
    problems: [403],
    requestExample: { title: 'Oak armchair, 1962', locale: 'en', price: { amount: 135000, currency: 'SEK' }, category_id: '0192d5e8-6a10-7c22-8d4e-1f2a3b4c5d6e', terms: { brand: '0192d5e8-6a11-7d33-a5e6-2a3b4c5d6e7f' }, attributes: { condition: 'good' }, location: { city: 'Stockholm', country: 'SE', postal_code: '11646' }, delivery: { pickup: true } },
    openapi: {
      operationId: 'replaceListing',
      method: 'PUT',
      path: '/me/listings/{id}',
      tags: [TAG],
      summary: 'Replace a listing',
      description:
        'Replaces the whole content (omitted fields are cleared). Drafts may stay incomplete; a listing on sale stays on sale and must stay complete (422 lists what is missing). 409 while the team reviews it, and for closed or denied listings.',
    },
  })
  .input(ZListingInput.extend({ id: z.uuid() }))
  .output(ZListing)
  .mutation(async ({ ctx, input }) => {
    const { id, ...content } = input;
    return ownListingBody(ctx, await replaceListingCommand(ctx, id, content));
  });
