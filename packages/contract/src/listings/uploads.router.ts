import { createCallerFactory, router } from '../trpc.js';
import type { Context } from '@hm/domain/core';
import { uploadListingImage } from './procedures/listing-images.js';

/**
 * Procedures that take raw bytes. Not in the public router (neither /v1 JSON nor /trpc): the API's
 * upload route calls them in-process, so they get the same auth, tenancy and problems as the rest.
 */
export const uploadsRouter = router({ listingImage: uploadListingImage });

const createCaller = createCallerFactory(uploadsRouter);
export const uploadsCaller = (ctx: Context) => createCaller(ctx);
