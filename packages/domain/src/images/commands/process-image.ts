import { z } from 'zod';
import { LockMode } from '@mikro-orm/core';
import { ListingImageSchema } from '@hm/db/entities';
import { tenantEm, type MikroORM } from '@hm/db/orm';
import type { Clock } from '../../core/context.js';
import { BULK_PRIORITY, defineTask } from '../../core/tasks.js';
import { transition } from '../../core/state-machine.js';
import { startDerivatives, type DerivativesInProgress } from '../derivatives.js';
import { takeEarly } from '../early-derivatives.js';
import { imageMachine } from '../image.machine.js';
import { photoTracer, type PhotoTracer } from '../photo-trace.js';
import { IMAGE_SIZES, imageKeys, originalKey, sizeKey, type ImageStore } from '../../core/ports/image-store.js';

export interface ImageDeps {
  orm: MikroORM;
  images: ImageStore;
  clock: Clock;
}

type Outcome = { to: 'ready'; width: number; height: number } | { to: 'failed'; reason: string };

/**
 * The `process-image` job: makes the three sizes, marks the photo ready (or failed, with a reason
 * the seller can read), then deletes the original, so camera metadata such as GPS is not kept
 * anywhere. Safe to run twice: a photo no longer `processing` is left alone.
 *
 * The seller may delete the photo, or its listing, while the sizes are being made. So the outcome
 * is written under the row's lock, after the sizes are stored: a delete that came first leaves no
 * row, and the job removes every file it stored (the public image URL answers 404); a delete that
 * comes later waits for this transaction and then removes the files itself. A job that finds no
 * row at its start removes the files too (an earlier attempt may have stored some before it died).
 */
export async function processImage(deps: ImageDeps, ref: { marketplaceId: string; imageId: string }): Promise<'ready' | 'failed' | 'skipped'> {
  const trace = photoTracer('job');
  trace.mark('start');
  // taken whatever happens next, so that nothing is left waiting for this job
  const early = takeEarly(ref.imageId);
  const image = await tenantEm(deps.orm, ref.marketplaceId).findOne(ListingImageSchema, { id: ref.imageId });
  trace.mark('row');
  if (!image) {
    await deps.images.delete(imageKeys(ref.imageId));
    return 'skipped';
  }
  if (image.status !== 'processing') return 'skipped';
  let outcome: Outcome;
  if (early) {
    // the upload started the sizes from the bytes it received (early-derivatives.ts): the same bytes as the original
    trace.add(early.marks);
    outcome = await storeSizes(deps.images, image.id, () => early.derivatives, trace.mark);
  } else {
    const original = await deps.images.get(originalKey(image.id));
    trace.mark('read');
    outcome = original
      ? await storeSizes(deps.images, image.id, () => startDerivatives(original.body, { mark: trace.mark }), trace.mark)
      : { to: 'failed', reason: 'The uploaded file was lost before it could be processed; upload the photo again.' };
  }

  const written = await tenantEm(deps.orm, ref.marketplaceId).transactional(async (em) => {
    const row = await em.findOne(ListingImageSchema, { id: image.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!row) return 'deleted' as const;
    if (row.status !== 'processing') return 'skipped' as const;
    if (outcome.to === 'ready') {
      row.width = outcome.width;
      row.height = outcome.height;
      await transition(imageMachine, row, 'finish', 'system', { now: deps.clock.now() });
    } else {
      row.error = outcome.reason.slice(0, 500);
      await transition(imageMachine, row, 'fail', 'system', { now: deps.clock.now() });
    }
    return outcome.to;
  });
  trace.mark('marked');
  if (written === 'deleted') {
    await deps.images.delete(imageKeys(image.id));
    return 'skipped';
  }
  if (written === 'skipped') return 'skipped';
  await deps.images.delete([originalKey(image.id)]);
  trace.mark('original-deleted');
  trace.publish(image.id);
  return written;
}

/**
 * Each size is stored as soon as it is encoded, while the larger ones are still being made; when
 * one fails, the others are let finish and every size is removed again (no files of a failed photo).
 */
async function storeSizes(images: ImageStore, imageId: string, start: () => Promise<DerivativesInProgress>, mark: PhotoTracer['mark']): Promise<Outcome> {
  let d: DerivativesInProgress;
  try {
    d = await start();
  } catch (e) {
    return { to: 'failed', reason: unreadable(e) };
  }
  let encoded = true;
  const stored = await Promise.allSettled(
    IMAGE_SIZES.map(async (size) => {
      const bytes = await d.sizes[size].catch((e: unknown) => {
        encoded = false;
        throw e;
      });
      await images.put(sizeKey(imageId, size), bytes, 'image/jpeg');
      mark(`stored:${size}`);
    }),
  );
  const failure = stored.find((r) => r.status === 'rejected');
  if (!failure) return { to: 'ready', width: d.width, height: d.height };
  await images.delete(IMAGE_SIZES.map((size) => sizeKey(imageId, size)));
  return { to: 'failed', reason: encoded ? 'The photo could not be saved (a storage problem on our side); upload it again.' : unreadable(failure.reason) };
}

/** The decoder's first line, after a sentence a seller can act on. */
function unreadable(e: unknown): string {
  const said = (e instanceof Error ? e.message : String(e)).split('\n')[0]!.trim().slice(0, 200);
  return `The photo could not be read: the file is damaged or is not a complete JPEG, PNG or WebP image. Export or save it again and upload the new file.${said ? ` (The decoder said: ${said})` : ''}`;
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
