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

describe('colour', () => {
  /** sRGB red 230,30,30 stored through a Display P3 profile (211,55,43 in P3 numbers) */
  const p3Red = (depth: 8 | 16) => {
    const s = sharp({ create: { width: 300, height: 200, channels: 3, background: { r: 230, g: 30, b: 30 } } }).withIccProfile('p3');
    return (depth === 16 ? s.toColourspace('rgb16') : s).png().toBuffer();
  };
  const firstPixel = async (jpeg: Buffer) => [...(await sharp(jpeg).raw().toBuffer()).subarray(0, 3)];
  const near = (got: number[], want: number[]) => got.every((v, i) => Math.abs(v - want[i]!) <= 3);

  test.each([8, 16] as const)('a %i-bit Display P3 PNG comes out in sRGB through its profile: red 230,30,30 stays red', async (depth) => {
    const png = await p3Red(depth);
    const meta = await sharp(png).metadata();
    expect([meta.depth, meta.hasProfile]).toEqual([depth === 16 ? 'ushort' : 'uchar', true]);
    const d = await makeDerivatives(png);
    for (const size of [d.thumb, d.medium, d.large]) {
      const px = await firstPixel(size);
      expect(near(px, [230, 30, 30]), `${px}`).toBe(true);
    }
  });

  test('a 16-bit PNG without a profile is taken as sRGB (not converted from P3)', async () => {
    const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: { r: 230, g: 30, b: 30 } } }).toColourspace('rgb16').png().toBuffer();
    expect((await sharp(png).metadata()).hasProfile).toBe(false);
    const px = await firstPixel((await makeDerivatives(png)).large);
    expect(near(px, [230, 30, 30]), `${px}`).toBe(true);
  });
});

describe('listing photo shape (at least 200 px a side, at most 5:1)', () => {
  const photo = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: '#123' } }).jpeg().toBuffer();
  const problemsOf = async (width: number, height: number) => {
    try {
      inspectImage(await photo(width, height), { photo: true });
      return [];
    } catch (e) {
      expect(e).toMatchObject({ code: 'validation_failed' });
      return (e as { errors: { message: string }[] }).errors.map((x) => x.message);
    }
  };

  test.each([
    [200, 200],
    [1000, 200],
    [200, 1000],
    [4000, 3000],
  ])('%i×%i is accepted', async (w, h) => expect(await problemsOf(w, h)).toEqual([]));

  test.each([
    [199, 200, ['each side must be at least 200 pixels']],
    [200, 199, ['each side must be at least 200 pixels']],
    [1001, 200, ['at most 5 times its shorter side']],
    [200, 1001, ['at most 5 times its shorter side']],
    [1, 1, ['each side must be at least 200 pixels']],
    [1, 8000, ['each side must be at least 200 pixels', 'at most 5 times its shorter side']],
    [8000, 1, ['each side must be at least 200 pixels', 'at most 5 times its shorter side']],
  ] as [number, number, string[]][])('%i×%i is refused, saying why', async (w, h, why) => {
    const problems = await problemsOf(w, h);
    expect(problems).toHaveLength(why.length);
    why.forEach((text, i) => expect(problems[i]).toContain(text));
    expect(problems[0]).toContain(`${w}×${h}`);
  });

  test('media (content pages) keep their own shapes: a 1×8000 banner is not a listing photo question', async () => {
    expect(inspectImage(await photo(1, 8000))).toEqual({ format: 'jpeg', width: 1, height: 8000 });
  });
});

describe('bytes cut off before the end of the image are refused from the bytes', () => {
  const withThumbnail = async () => {
    // an EXIF thumbnail is a whole JPEG (with its own end marker) inside the file's first segment
    const thumb = await sharp({ create: { width: 160, height: 120, channels: 3, background: '#456' } }).jpeg().toBuffer();
    const main = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#789' } }).jpeg({ progressive: true }).toBuffer();
    const len = Buffer.alloc(2);
    len.writeUInt16BE(2 + 6 + thumb.length);
    return Buffer.concat([main.subarray(0, 2), Buffer.from([0xff, 0xe1]), len, Buffer.from('Exif\0\0', 'latin1'), thumb, main.subarray(2)]);
  };
  /** noise, so the files have real scan data (and stuffed 0xFF bytes) to walk through */
  const noisy = () => sharp({ create: { width: 640, height: 480, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 40 } } });
  const formats: [string, () => Promise<Buffer>][] = [
    ['baseline JPEG', () => noisy().jpeg().toBuffer()],
    ['progressive JPEG with an embedded thumbnail', withThumbnail],
    ['PNG', () => noisy().png().toBuffer()],
    ['WebP', () => noisy().webp().toBuffer()],
  ];

  test.each(formats)('%s: whole, or with bytes after its end, is accepted; one byte short, or half, is 422', async (_name, make) => {
    const whole = await make();
    await sharp(whole, { failOn: 'error' }).stats(); // decodes
    expect(inspectImage(whole, { photo: true })).toMatchObject({ width: 640, height: 480 });
    expect(inspectImage(Buffer.concat([whole, Buffer.alloc(1000)]), { photo: true })).toMatchObject({ width: 640 });
    const half = whole.subarray(0, Math.floor(whole.length / 2));
    await expect(sharp(half, { failOn: 'error' }).toBuffer()).rejects.toThrow(); // what the job would have met
    for (const cut of [whole.subarray(0, whole.length - 1), half]) {
      expect(() => inspectImage(cut, { photo: true })).toThrow(expect.objectContaining({ code: 'validation_failed', message: expect.stringContaining('cut off before the end of the image') }));
    }
  });
});
