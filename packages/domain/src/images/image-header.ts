/**
 * Format and dimensions from the first bytes of a JPEG, PNG or WebP file, without decoding (and
 * without handing megabytes to an image library): how a decompression bomb is refused for free.
 */
export interface ImageHeader {
  format: 'jpeg' | 'png' | 'webp';
  width: number;
  height: number;
}

const SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

function jpeg(b: Buffer): ImageHeader | undefined {
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return undefined;
    const marker = b[i + 1]!;
    if (marker === 0xff) {
      i += 1; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2; // markers without a length
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return undefined; // end, or scan data before any frame header
    if (SOF.has(marker)) {
      const height = b.readUInt16BE(i + 5);
      const width = b.readUInt16BE(i + 7);
      return width && height ? { format: 'jpeg', width, height } : undefined;
    }
    i += 2 + b.readUInt16BE(i + 2);
  }
  return undefined;
}

function png(b: Buffer): ImageHeader | undefined {
  if (b.length < 24 || b.toString('latin1', 12, 16) !== 'IHDR') return undefined;
  const width = b.readUInt32BE(16);
  const height = b.readUInt32BE(20);
  return width && height ? { format: 'png', width, height } : undefined;
}

function webp(b: Buffer): ImageHeader | undefined {
  if (b.length < 30) return undefined;
  const chunk = b.toString('latin1', 12, 16);
  if (chunk === 'VP8 ') {
    if (b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) return undefined;
    return { format: 'webp', width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
  }
  if (chunk === 'VP8L') {
    if (b[20] !== 0x2f) return undefined;
    const bits = b.readUInt32LE(21);
    return { format: 'webp', width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') {
    return { format: 'webp', width: b.readUIntLE(24, 3) + 1, height: b.readUIntLE(27, 3) + 1 };
  }
  return undefined;
}

/**
 * Whether the bytes run to the image's end: a JPEG's end-of-image marker (found by walking its
 * segments and skipping scan data, so an EXIF thumbnail's own end marker does not count), a PNG's
 * IEND chunk (found by chunk lengths), a WebP's RIFF length. Bytes after the end are fine (cameras
 * append data there). Linear and cheap: a truncated upload is refused before a job tries to decode it.
 */
export function reachesEnd(b: Buffer, format: ImageHeader['format']): boolean {
  if (format === 'png') return pngReachesEnd(b);
  if (format === 'webp') return b.length >= 8 + b.readUInt32LE(4);
  return jpegReachesEnd(b);
}

function jpegReachesEnd(b: Buffer): boolean {
  let i = 2;
  while (i + 1 < b.length) {
    if (b[i] !== 0xff) {
      // stray bytes between segments (decoders skip them with a warning): on to the next marker
      const next = b.indexOf(0xff, i);
      if (next < 0) return false;
      i = next;
      continue;
    }
    const marker = b[i + 1]!;
    if (marker === 0xd9) return true;
    if (marker === 0xff) {
      i += 1;
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2;
      continue;
    }
    if (i + 3 >= b.length) return false;
    i += 2 + b.readUInt16BE(i + 2);
    if (marker === 0xda) {
      // entropy-coded data: 0xFF in it is always followed by 0x00 (stuffing), a restart marker or fill
      for (;;) {
        const ff = b.indexOf(0xff, i);
        if (ff < 0 || ff + 1 >= b.length) return false;
        const after = b[ff + 1]!;
        if (after === 0x00 || (after >= 0xd0 && after <= 0xd7)) i = ff + 2;
        else if (after === 0xff) i = ff + 1;
        else {
          i = ff;
          break;
        }
      }
    }
  }
  return false;
}

function pngReachesEnd(b: Buffer): boolean {
  let i = 8;
  while (i + 8 <= b.length) {
    if (b.toString('latin1', i + 4, i + 8) === 'IEND') return i + 12 <= b.length;
    i += 12 + b.readUInt32BE(i); // length, type, data, CRC
  }
  return false;
}

/** How many first bytes `imageFormatOf` needs to tell the formats apart. */
export const MAGIC_BYTES = 12;

/** The format from the magic bytes alone, before the rest of the header has arrived. */
export function imageFormatOf(b: Buffer): ImageHeader['format'] | undefined {
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (b.length >= 8 && b.readUInt32BE(0) === 0x89504e47 && b.readUInt32BE(4) === 0x0d0a1a0a) return 'png';
  if (b.length >= MAGIC_BYTES && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  return undefined;
}

export function readImageHeader(b: Buffer): ImageHeader | undefined {
  const format = imageFormatOf(b);
  return format === 'jpeg' ? jpeg(b) : format === 'png' ? png(b) : format === 'webp' ? webp(b) : undefined;
}
