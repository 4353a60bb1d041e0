import type { Sharp } from 'sharp';
import { DomainError } from '../core/errors.js';
import { reachesEnd, readImageHeader } from './image-header.js';

/** Spec (Limits → Photos). */
export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;
export const MAX_IMAGE_PIXELS = 50_000_000;
export const MAX_IMAGES_PER_LISTING = 20;
/**
 * Listing photos only (docs/decisions.md): the shorter side at least 200 px, the longer at most 5
 * times the shorter. Below that a photo is a sliver or a dot that fills a 400 px thumb with a few
 * pixels and takes one of the 20 places; a phone's panorama of a sofa (about 4:1) still fits.
 */
export const MIN_PHOTO_SIDE = 200;
export const MAX_PHOTO_ASPECT = 5;

export type { ImageHeader as Inspected } from './image-header.js';
import type { ImageHeader as Inspected } from './image-header.js';

/**
 * What the bytes are, from their header only: the type is decided here, never from Content-Type,
 * and a decompression bomb (small file, huge dimensions) is refused before a pixel is decoded; so
 * are bytes cut off before the image's end. `photo`: a listing photo, which must also have a
 * usable shape (MIN_PHOTO_SIDE, MAX_PHOTO_ASPECT). Every problem found is listed (422).
 */
export function inspectImage(bytes: Buffer, opts: { photo?: boolean } = {}): Inspected {
  const header = readImageHeader(bytes);
  if (!header) throw notAnImage();
  const { width, height } = header;
  const problems: string[] = [];
  const pixels = width * height;
  if (pixels > MAX_IMAGE_PIXELS) {
    problems.push(`The photo is ${width}×${height} pixels (${(pixels / 1_000_000).toFixed(1)} megapixels); at most 50 megapixels are accepted.`);
  }
  if (opts.photo) {
    const short = Math.min(width, height);
    const long = Math.max(width, height);
    if (short < MIN_PHOTO_SIDE) problems.push(`The photo is ${width}×${height} pixels; each side must be at least ${MIN_PHOTO_SIDE} pixels.`);
    if (long > MAX_PHOTO_ASPECT * short) problems.push(`The photo is ${width}×${height} pixels; its longer side may be at most ${MAX_PHOTO_ASPECT} times its shorter side.`);
  }
  if (!reachesEnd(bytes, header.format)) {
    problems.push(`The ${header.format.toUpperCase()} file is cut off before the end of the image (an interrupted copy or download?); upload the whole file.`);
  }
  if (problems.length) {
    throw new DomainError('validation_failed', problems.join(' '), { errors: problems.map((message) => ({ location: '', message, value: null })) });
  }
  return header;
}

export function notAnImage() {
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

export interface DerivativeOptions {
  /** also the 2400 px size (marketplace media) */
  xlarge?: boolean;
  /** called as each phase ends (`metadata`, `decoded`, `encoded:<size>`): where the time goes (photo-trace.ts) */
  mark?: (phase: string) => void;
}

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
export async function startDerivatives(original: Buffer, opts: DerivativeOptions = {}): Promise<DerivativesInProgress> {
  const top = opts.xlarge ? 2400 : 1600;
  const mark = opts.mark ?? (() => {});
  // loaded here, not at the top: processes that never resize a photo (the console) do not pay for sharp
  const { default: sharp } = await import('sharp');
  const meta = await sharp(original).metadata();
  mark('metadata');
  const decoded = sharp(original, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error', sequentialRead: true })
    .rotate()
    .resize(top, top, { fit: 'inside', withoutEnlargement: true });
  // sharp turns a 16-bit RGB image with a colour profile into Display P3, not sRGB (to keep its
  // gamut), and its raw output carries no profile: without this the P3 numbers would be written as
  // sRGB, and colours come out dull (P3 red 230,30,30 as 211,55,43). 8-bit input is already sRGB.
  if (meta.space === 'rgb16' && meta.hasProfile) decoded.withIccProfile('srgb');
  const { data, info } = await decoded.raw().toBuffer({ resolveWithObject: true });
  mark('decoded');
  const upright = meta.orientation && meta.orientation >= 5 ? { width: meta.height!, height: meta.width! } : { width: meta.width!, height: meta.height! };
  const raw = () => sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
  const flatten = (s: Sharp) => (info.channels === 4 ? s.flatten({ background: '#ffffff' }) : s);
  const sizes = {
    large: flatten(raw()).resize(1600, 1600, { fit: 'inside', withoutEnlargement: true }).jpeg(jpeg).toBuffer(),
    medium: flatten(raw()).resize(800, 800, { fit: 'inside', withoutEnlargement: true }).jpeg(jpeg).toBuffer(),
    thumb: flatten(raw()).resize(400, 400, { fit: 'cover' }).jpeg(jpeg).toBuffer(),
    ...(opts.xlarge ? { xlarge: flatten(raw()).jpeg(jpeg).toBuffer() } : {}),
  };
  if (opts.mark) for (const [size, p] of Object.entries(sizes)) p.then(() => mark(`encoded:${size}`), () => {});
  return { sizes, ...upright };
}

/** `startDerivatives`, every size encoded: what a caller that needs them all at once awaits. */
export async function makeDerivatives(original: Buffer, opts: DerivativeOptions = {}): Promise<Derivatives> {
  const { sizes, width, height } = await startDerivatives(original, opts);
  const [thumb, medium, large, xlarge] = await Promise.all([sizes.thumb, sizes.medium, sizes.large, sizes.xlarge]);
  return { thumb, medium, large, ...(xlarge ? { xlarge } : {}), width, height };
}
