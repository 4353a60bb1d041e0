import { z } from 'zod';
import { ListingImageSchema } from '@hm/db/entities';
import { tenantEm, type MikroORM } from '@hm/db/orm';
import type { Clock } from '../../core/context.js';
import { BULK_PRIORITY, defineTask } from '../../core/tasks.js';
import { transition } from '../../core/state-machine.js';
import { startDerivatives } from '../derivatives.js';
import { imageMachine } from '../image.machine.js';
import { IMAGE_SIZES, originalKey, sizeKey, type ImageStore } from '../../core/ports/image-store.js';

export interface ImageDeps {
  orm: MikroORM;
  images: ImageStore;
  clock: Clock;
}

/**
 * The `process-image` job: makes the three sizes, marks the photo ready (or failed when the bytes
 * do not decode), then deletes the original, so camera metadata such as GPS is not kept anywhere.
 * Safe to run twice: a photo no longer `processing` (or deleted) is left alone.
 */
export async function processImage(deps: ImageDeps, ref: { marketplaceId: string; imageId: string }): Promise<'ready' | 'failed' | 'skipped'> {
  const em = tenantEm(deps.orm, ref.marketplaceId);
  const image = await em.findOne(ListingImageSchema, { id: ref.imageId });
  if (!image || image.status !== 'processing') return 'skipped';
  const original = await deps.images.get(originalKey(image.id));
  if (!original) {
    image.error = 'The uploaded bytes are gone.';
    await transition(imageMachine, image, 'fail', 'system', { now: deps.clock.now() });
    await em.flush();
    return 'failed';
  }
  let result: 'ready' | 'failed';
  try {
    const d = await startDerivatives(original.body);
    // each size is stored as soon as it is encoded, while the larger ones are still being made; when
    // one fails, the others are let finish and every size is removed again (no files of a failed photo)
    const stored = await Promise.allSettled(IMAGE_SIZES.map(async (size) => deps.images.put(sizeKey(image.id, size), await d.sizes[size], 'image/jpeg')));
    const failure = stored.find((r) => r.status === 'rejected');
    if (failure) {
      await deps.images.delete(IMAGE_SIZES.map((size) => sizeKey(image.id, size)));
      throw failure.reason;
    }
    image.width = d.width;
    image.height = d.height;
    await transition(imageMachine, image, 'finish', 'system', { now: deps.clock.now() });
    result = 'ready';
  } catch (e) {
    image.error = `The photo could not be read: ${(e as Error).message}`.slice(0, 500);
    await transition(imageMachine, image, 'fail', 'system', { now: deps.clock.now() });
    result = 'failed';
  }
  await em.flush();
  await deps.images.delete([originalKey(image.id)]);
  return result;
}

/** Makes a listing photo's sizes (thumb, medium, large) and marks it ready or failed. */
export const processImageTask = defineTask({
  name: 'process-image',
  payload: z.object({ marketplace_id: z.uuid(), image_id: z.uuid() }),
  maxAttempts: 5,
  // a seller's 30 photos, or the demo shop's on a first start, must not hold up a sign-in link
  priority: BULK_PRIORITY,
  run: (p, ctx) => processImage(ctx, { marketplaceId: p.marketplace_id, imageId: p.image_id }),
});
