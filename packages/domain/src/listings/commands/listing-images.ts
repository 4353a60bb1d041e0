import { ListingImageSchema, type Listing, type ListingImage } from '@hm/db/entities';
import { LockMode } from '@mikro-orm/core';
import type { UserCommandContext } from '../../core/context.js';
import { uuidv7 } from '@hm/db/orm';
import { ConflictError, NotFoundError, ValidationError } from '../../core/errors.js';
import { MAX_IMAGES_PER_LISTING, dropEarly, inspectImage, photoTracer, receiveOriginal, startEarly } from '../../images/index.js';
import { processImageTask } from '../../images/index.js';
import { imageMachine } from '../../images/index.js';
import { imageKeys, originalKey, type ImageStore } from '../../core/ports/image-store.js';
import { addJob, jobKey } from '../../core/jobs.js';
import { assertEditable } from '../listing.machine.js';
import { findOwnListing } from './find-listings.js';

type Ctx = UserCommandContext & { images: ImageStore };

/**
 * POST …/images: the body is written to the store as the original while it arrives (the type read
 * from its first bytes, at most 20 MiB), then checked whole from its header (≤ 50 MP, a usable shape)
 * and for an end (not cut off), and a `process-image` job makes the sizes. At most 20 photos per
 * listing, counted under the listing's lock so concurrent uploads cannot pass it. Whatever refuses
 * the upload — a body cut off or past the cap, a check, the listing — leaves no original and no row.
 */
export async function addListingImage(ctx: Ctx, listingId: string, body: Buffer | AsyncIterable<Buffer>, length?: number): Promise<ListingImage> {
  const imageId = uuidv7();
  const key = originalKey(imageId);
  const trace = photoTracer('upload');
  trace.mark('command');
  const { bytes, format, stored } = await receiveOriginal(ctx.images, key, Buffer.isBuffer(body) ? once(body) : body, length);
  trace.mark('received');
  const now = ctx.clock.now();
  try {
    inspectImage(bytes, { photo: true });
    trace.mark('checked');
    // The sizes may start now, in this process, while the upload's transaction runs and commits and
    // its job is handed over (early-derivatives.ts); an upload the transaction refuses drops them.
    startEarly(imageId, bytes);
    // The original may still be finishing its last write: the upload commits (and the job can start)
    // only once it is stored.
    const added = await ctx.em.transactional(async (em) => {
      const l = await findOwnListing(em, ctx.user.id, listingId, { lock: true });
      assertEditable(l);
      const existing = await em.find(ListingImageSchema, { listingId }, { orderBy: { position: 'desc' }, limit: MAX_IMAGES_PER_LISTING + 1 });
      if (existing.length >= MAX_IMAGES_PER_LISTING) throw new ConflictError(`A listing has at most ${MAX_IMAGES_PER_LISTING} photos; delete one to add another.`);
      const image = em.create(ListingImageSchema, {
        id: imageId,
        marketplaceId: ctx.marketplace.id,
        listingId,
        position: (existing[0]?.position ?? -1) + 1,
        status: imageMachine.initial,
        format,
        bytes: bytes.length,
        width: null,
        height: null,
        error: null,
        createdAt: now,
        updatedAt: now,
      });
      l.updatedAt = now;
      await em.flush();
      await addJob(em, processImageTask, { marketplace_id: ctx.marketplace.id, image_id: image.id }, { jobKey: jobKey(processImageTask, image.id) });
      await stored;
      trace.mark('stored');
      return image;
    });
    trace.mark('committed');
    trace.publish(imageId);
    return added;
  } catch (e) {
    dropEarly(imageId);
    await stored.catch(() => {});
    await ctx.images.delete([key]);
    throw e;
  }
}

async function* once(bytes: Buffer) {
  yield bytes;
}

/** PUT …/images/order: every photo id exactly once; the first becomes the main photo. */
export async function reorderListingImages(ctx: UserCommandContext, listingId: string, imageIds: string[]): Promise<Listing> {
  return ctx.em.transactional(async (em) => {
    const l = await findOwnListing(em, ctx.user.id, listingId, { lock: true });
    assertEditable(l);
    const images = await em.find(ListingImageSchema, { listingId });
    const known = new Set(images.map((i) => i.id));
    const errors = [];
    const seen = new Set<string>();
    for (const [i, id] of imageIds.entries()) {
      if (!known.has(id)) errors.push({ location: `image_ids.${i}`, message: 'Not a photo of this listing.', value: id });
      else if (seen.has(id)) errors.push({ location: `image_ids.${i}`, message: 'Listed twice.', value: id });
      seen.add(id);
    }
    const missing = images.filter((i) => !seen.has(i.id));
    if (missing.length) errors.push({ location: 'image_ids', message: `Every photo must be listed once; missing: ${missing.map((m) => m.id).join(', ')}.`, value: null });
    if (errors.length) throw new ValidationError(errors);
    const byId = new Map(images.map((i) => [i.id, i]));
    imageIds.forEach((id, position) => (byId.get(id)!.position = position));
    l.updatedAt = ctx.clock.now();
    await em.flush();
    return l;
  });
}

/**
 * DELETE …/images/{image_id}: 204; a listing on sale keeps at least its minimum of ready photos.
 * The photo's row is locked: a `process-image` job finishing it at the same moment either commits
 * first (and its files are removed below) or finds the row gone and removes what it stored.
 */
export async function deleteListingImage(ctx: Ctx, listingId: string, imageId: string): Promise<void> {
  await ctx.em.transactional(async (em) => {
    const l = await findOwnListing(em, ctx.user.id, listingId, { lock: true });
    assertEditable(l);
    const image = await em.findOne(ListingImageSchema, { id: imageId, listingId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!image) throw new NotFoundError('This photo');
    if (l.status === 'published' && image.status === 'ready') {
      const ready = await em.count(ListingImageSchema, { listingId, status: 'ready' });
      if (ready - 1 < ctx.marketplace.listingRules.min_images) {
        throw new ConflictError(`A listing on sale needs at least ${ctx.marketplace.listingRules.min_images} photos; add another before deleting this one.`);
      }
    }
    em.remove(image);
    l.updatedAt = ctx.clock.now();
    await em.flush();
  });
  await ctx.images.delete(imageKeys(imageId));
}
