import type { Sharp } from 'sharp';
import { DomainError } from '../core/errors.js';
import { readImageHeader } from './image-header.js';

/** Spec (Limits → Photos). */
export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;
export const MAX_IMAGE_PIXELS = 50_000_000;
export const MAX_IMAGES_PER_LISTING = 20;

export type { ImageHeader as Inspected } from './image-header.js';
import type { ImageHeader as Inspected } from './image-header.js';

/**
 * What the bytes are, from their header only: the type is decided here, never from Content-Type,
 * and a decompression bomb (small file, huge dimensions) is refused before a pixel is decoded.
 */
export function inspectImage(bytes: Buffer): Inspected {
  const header = readImageHeader(bytes);
  if (!header) throw notAnImage();
  const pixels = header.width * header.height;
  if (pixels > MAX_IMAGE_PIXELS) {
    const mp = (pixels / 1_000_000).toFixed(1);
    throw new DomainError('validation_failed', `The photo is ${header.width}×${header.height} pixels (${mp} megapixels); at most 50 megapixels are accepted.`, {
      errors: [{ location: '', message: `At most ${MAX_IMAGE_PIXELS} pixels; this one has ${pixels}.`, value: null }],
    });
  }
  return header;
}

function notAnImage() {
  return new DomainError('unsupported_image', 'Send the photo as JPEG, PNG or WebP bytes (the type is read from the bytes themselves).');
}

export interface Derivatives {
  thumb: Buffer;
  medium: Buffer;
  large: Buffer;
  /** 2400 px, made for marketplace media only */
  xlarge?: Buffer;
  /** of the original, upright */
  width: number;
  height: number;
}

const jpeg = { quality: 82, progressive: true, chromaSubsampling: '4:2:0' } as const;

export type DerivativeSize = 'thumb' | 'medium' | 'large' | 'xlarge';

/** The sizes being encoded, each its own promise, so a caller can store one while the others are still being made. */
export interface DerivativesInProgress {
  sizes: { thumb: Promise<Buffer>; medium: Promise<Buffer>; large: Promise<Buffer>; xlarge?: Promise<Buffer> };
  /** of the original, upright */
  width: number;
  height: number;
}

/**
 * The JPEG sizes: thumb 400 px square (cover), medium and large fitting 800 and 1600 px; with
 * `xlarge` (marketplace media) also 2400 px. EXIF orientation is applied and no metadata is written
 * (no GPS, no camera data survives). The original is decoded once, shrunk to the largest size on
 * load (JPEG shrink-on-load), and the sizes are encoded from that in parallel. Resolves once the
 * original is decoded; each size's promise resolves when that size is encoded.
 *
 * One decode, not sharp's `clone()` per size: every clone decodes the original again (the entropy
 * decoding of a 12 MP JPEG is not made cheaper by shrink-on-load), measured ~1.5× slower here.
 */
export async function startDerivatives(original: Buffer, opts: { xlarge?: boolean } = {}): Promise<DerivativesInProgress> {
  const top = opts.xlarge ? 2400 : 1600;
  // loaded here, not at the top: processes that never resize a photo (the console) do not pay for sharp
  const { default: sharp } = await import('sharp');
  const [{ data, info }, meta] = await Promise.all([
    sharp(original, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error', sequentialRead: true })
      .rotate()
      .resize(top, top, { fit: 'inside', withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true }),
    sharp(original).metadata(),
  ]);
  const upright = meta.orientation && meta.orientation >= 5 ? { width: meta.height!, height: meta.width! } : { width: meta.width!, height: meta.height! };
  const raw = () => sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
  const flatten = (s: Sharp) => (info.channels === 4 ? s.flatten({ background: '#ffffff' }) : s);
  const sizes = {
    large: flatten(raw()).resize(1600, 1600, { fit: 'inside', withoutEnlargement: true }).jpeg(jpeg).toBuffer(),
    medium: flatten(raw()).resize(800, 800, { fit: 'inside', withoutEnlargement: true }).jpeg(jpeg).toBuffer(),
    thumb: flatten(raw()).resize(400, 400, { fit: 'cover' }).jpeg(jpeg).toBuffer(),
    ...(opts.xlarge ? { xlarge: flatten(raw()).jpeg(jpeg).toBuffer() } : {}),
  };
  return { sizes, ...upright };
}

/** `startDerivatives`, every size encoded: what a caller that needs them all at once awaits. */
export async function makeDerivatives(original: Buffer, opts: { xlarge?: boolean } = {}): Promise<Derivatives> {
  const { sizes, width, height } = await startDerivatives(original, opts);
  const [thumb, medium, large, xlarge] = await Promise.all([sizes.thumb, sizes.medium, sizes.large, sizes.xlarge]);
  return { thumb, medium, large, ...(xlarge ? { xlarge } : {}), width, height };
}
