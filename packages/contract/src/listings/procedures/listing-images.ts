import { z } from 'zod';
import { sessionProcedure } from '../../trpc.js';
import { ZImage, ZImageOrderInput, ZImageRef, ZListing } from '@hm/domain/listings';
import { addListingImage, deleteListingImage as deleteListingImageCommand, reorderListingImages } from '@hm/domain/listings';
import { toImageBody } from '@hm/domain/listings';
import { TAG, ownListingBody } from './_shared.js';

export const orderListingImages = sessionProcedure
  .meta({ auth: 'session', requestExample: { image_ids: ['0192d5e9-1b2c-7d3e-9f4a-5b6c7d8e9fa0', '0192d5e9-0a1b-7c2d-8e3f-4a5b6c7d8e9f'] }, openapi: { operationId: 'reorderListingImages', method: 'PUT', path: '/me/listings/{id}/images/order', tags: [TAG], summary: 'Order the photos', description: 'Every photo id exactly once (422 otherwise); the first becomes the main photo.' } })
  .input(ZImageOrderInput)
  .output(ZListing)
  .mutation(async ({ ctx, input }) => ownListingBody(ctx, await reorderListingImages(ctx, input.id, input.image_ids)));

export const deleteListingImage = sessionProcedure
  .meta({ auth: 'session', successStatus: 204, openapi: { operationId: 'deleteListingImage', method: 'DELETE', path: '/me/listings/{id}/images/{image_id}', tags: [TAG], summary: 'Delete a photo', description: 'A listing on sale keeps at least the marketplace minimum of photos (409).' } })
  .input(ZImageRef)
  .output(z.void())
  .mutation(async ({ ctx, input }) => {
    await deleteListingImageCommand(ctx, input.id, input.image_id);
  });

/**
 * The photo upload: raw image bytes, so not a JSON procedure on /v1 — apps/api mounts it as its
 * own route and calls it through the uploads caller; it shares the session checks of every /me call
 * (the only session check of an upload: made before the body stream is read).
 */
const isBody = (v: unknown): v is Buffer | AsyncIterable<Buffer> => Buffer.isBuffer(v) || (typeof v === 'object' && v !== null && Symbol.asyncIterator in v);

export const uploadListingImage = sessionProcedure
  .input(z.object({ id: z.uuid(), body: z.custom<Buffer | AsyncIterable<Buffer>>(isBody), length: z.number().int().nonnegative().optional() }))
  .output(ZImage)
  .mutation(async ({ ctx, input }) => toImageBody(await addListingImage(ctx, input.id, input.body, input.length), ctx.publicUrl));
