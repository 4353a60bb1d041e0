import sharp from 'sharp';
import { describe, expect, test } from 'vitest';
import { inspectImage, makeDerivatives } from './derivatives.js';

/** A JPEG with EXIF orientation 6 (stored landscape, shown portrait) and GPS coordinates. */
async function cameraJpeg(width = 1200, height = 800) {
  const exif = { IFD0: { Make: 'TestCam', Model: 'X1' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '59/1 19/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '18/1 4/1 0/1' } };
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 60, b: 30 } } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .withExifMerge(exif)
    .toBuffer();
}

describe('header reading agrees with sharp on every format and variant', () => {
  const variants: [string, () => Promise<Buffer>][] = [
    ['baseline JPEG', () => sharp({ create: { width: 321, height: 123, channels: 3, background: '#123' } }).jpeg().toBuffer()],
    ['progressive JPEG with EXIF', () => sharp({ create: { width: 640, height: 17, channels: 3, background: '#123' } }).jpeg({ progressive: true }).withMetadata({ orientation: 6 }).toBuffer()],
    ['PNG with alpha', () => sharp({ create: { width: 5, height: 4000, channels: 4, background: '#1234' } }).png().toBuffer()],
    ['lossy WebP', () => sharp({ create: { width: 999, height: 333, channels: 3, background: '#123' } }).webp({ quality: 50 }).toBuffer()],
    ['lossless WebP', () => sharp({ create: { width: 1000, height: 7, channels: 3, background: '#123' } }).webp({ lossless: true }).toBuffer()],
    ['WebP with alpha (VP8X)', () => sharp({ create: { width: 77, height: 88, channels: 4, background: '#1234' } }).webp().toBuffer()],
  ];
  test.each(variants)('%s', async (_name, make) => {
    const bytes = await make();
    const meta = await sharp(bytes).metadata();
    expect(inspectImage(bytes)).toEqual({ format: meta.format, width: meta.width, height: meta.height });
  });

  test('truncated headers are not images', async () => {
    const bytes = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } }).png().toBuffer();
    expect(() => inspectImage(bytes.subarray(0, 20))).toThrow(expect.objectContaining({ code: 'unsupported_image' }));
    expect(() => inspectImage(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00]))).toThrow(expect.objectContaining({ code: 'unsupported_image' }));
  });
});

describe('photo sizes', () => {
  test('thumb 400 square, medium ≤ 800, large ≤ 1600, upright, and no metadata at all', async () => {
    const original = await cameraJpeg(4000, 3000);
    const before = await sharp(original).metadata();
    expect(before.exif?.toString('latin1')).toContain('TestCam');
    expect(before.orientation).toBe(6);

    const d = await makeDerivatives(original);
    expect({ width: d.width, height: d.height }).toEqual({ width: 3000, height: 4000 });
    const sizes = await Promise.all([d.thumb, d.medium, d.large].map((b) => sharp(b).metadata()));
    expect(sizes.map((m) => [m.format, m.width, m.height])).toEqual([
      ['jpeg', 400, 400],
      ['jpeg', 600, 800],
      ['jpeg', 1200, 1600],
    ]);
    for (const m of sizes) {
      expect(m.exif).toBeUndefined();
      expect(m.icc).toBeUndefined();
      expect(m.xmp).toBeUndefined();
      expect(m.orientation).toBeUndefined();
    }
    for (const b of [d.thumb, d.medium, d.large]) {
      expect(b.toString('latin1')).not.toContain('TestCam');
      expect(b.toString('latin1')).not.toContain('GPS');
    }
  });

  test('small photos are not enlarged; transparent PNG becomes white-backed JPEG', async () => {
    const png = await sharp({ create: { width: 300, height: 200, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } }).png().toBuffer();
    const d = await makeDerivatives(png);
    const [thumb, large] = await Promise.all([sharp(d.thumb).metadata(), sharp(d.large).metadata()]);
    expect([large.width, large.height]).toEqual([300, 200]);
    expect([thumb.width, thumb.height]).toEqual([400, 400]);
    const { data } = await sharp(d.large).raw().toBuffer({ resolveWithObject: true });
    expect(data[0]).toBeGreaterThan(240);
  });

  test('inspect reads type and size from the bytes; other bytes are refused', async () => {
    const webp = await sharp({ create: { width: 10, height: 20, channels: 3, background: '#000' } }).webp().toBuffer();
    expect(inspectImage(webp)).toEqual({ format: 'webp', width: 10, height: 20 });
    const gif = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } }).gif().toBuffer();
    expect(() => inspectImage(gif)).toThrow(expect.objectContaining({ code: 'unsupported_image' }));
    expect(() => inspectImage(Buffer.from('%PDF-1.7 not an image'))).toThrow(expect.objectContaining({ code: 'unsupported_image' }));
  });
});
