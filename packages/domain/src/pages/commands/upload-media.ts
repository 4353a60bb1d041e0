import { MediaSchema, type Media } from '@hm/db/entities';
import { uuidv7 } from '@hm/db/orm';
import type { CommandContext } from '../../core/context.js';
import { DomainError, NotFoundError, ValidationError } from '../../core/errors.js';
import { unknownLanguages } from '../../core/locale.js';
import { inspectImage, makeDerivatives, MAX_IMAGE_BYTES } from '../../images/index.js';
import { MEDIA_SIZES, mediaKey } from '../../core/ports/image-store.js';

/**
 * `media upload`: an operator's image for content pages, through the listing photos' checks (type
 * from the bytes, 20 MiB, 50 megapixels: a bomb is refused from its header) and the same sharp
 * pipeline, plus the 2400 px `xlarge` size. Made at once (an operator waits for one image; no job),
 * stored before the row, so an ImageRef never points at missing files.
 */
export async function uploadMedia(ctx: CommandContext, input: { bytes: Buffer; alt: string; alts?: Record<string, string> }): Promise<Media> {
  checkAlts(ctx, input.alts);
  if (input.bytes.length === 0) throw new ValidationError([{ location: 'file', message: 'The file is empty.', value: null }]);
  if (input.bytes.length > MAX_IMAGE_BYTES) throw new DomainError('image_too_large', `The image is ${input.bytes.length} bytes; at most ${MAX_IMAGE_BYTES} (20 MiB) are accepted.`);
  const header = inspectImage(input.bytes);
  let d: Awaited<ReturnType<typeof makeDerivatives>>;
  try {
    d = await makeDerivatives(input.bytes, { xlarge: true });
  } catch (e) {
    throw new ValidationError([{ location: 'file', message: `The image could not be read: ${(e as Error).message}`.slice(0, 300), value: null }]);
  }
  const id = uuidv7();
  await Promise.all(MEDIA_SIZES.map((size) => ctx.images.put(mediaKey(id, size), d[size]!, 'image/jpeg')));
  const media = ctx.em.create(MediaSchema, { id, marketplaceId: ctx.marketplace.id, alt: input.alt, alts: nonEmpty(input.alts), format: header.format, bytes: input.bytes.length, width: d.width, height: d.height });
  await ctx.em.flush();
  return media;
}

/** The media library (back office): uploaded images, the newest first, at most `limit`. */
export function listMedia(ctx: CommandContext, limit: number): Promise<Media[]> {
  return ctx.em.find(MediaSchema, {}, { orderBy: { createdAt: 'desc', id: 'desc' }, limit });
}

/** Alt texts per language name only the marketplace's languages. */
function checkAlts(ctx: CommandContext, alts: Record<string, string> | undefined): void {
  const errors = unknownLanguages(ctx.marketplace.locales, 'alts', alts);
  if (errors.length) throw new ValidationError(errors);
}

const nonEmpty = (texts: Record<string, string> | undefined) => (texts && Object.keys(texts).length ? texts : null);

/** `media set-alt`: the default language's alt text and/or the alt texts per language (replaced as a whole; an empty map removes them). */
export async function setMediaAlt(ctx: CommandContext, id: string, input: { alt?: string; alts?: Record<string, string> }): Promise<Media> {
  checkAlts(ctx, input.alts);
  const media = await ctx.em.findOne(MediaSchema, { id });
  if (!media) throw new NotFoundError('This image');
  if (input.alt !== undefined) media.alt = input.alt;
  if (input.alts !== undefined) media.alts = nonEmpty(input.alts);
  await ctx.em.flush();
  return media;
}
