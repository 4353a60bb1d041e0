import sharp from 'sharp';
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { jpeg, makeSellingMarketplace, signUp, startHarness, uploadPhoto, type Harness } from './harness.js';

/** Listing photos: the upload limits, detection from bytes, processing into sizes, serving. */
let h: Harness;
let m: Awaited<ReturnType<typeof makeSellingMarketplace>>;
let session: string;
const MiB = 1024 * 1024;
/** keys whose next `put` fails (a full disk, a store that is down), to see a photo fail halfway */
const failingPuts = new Set<string>();
/** keys whose `put` waits until released, just before or just after writing: a job caught halfway */
const heldPuts = new Map<string, { when: 'before' | 'after'; reached: () => void; release: Promise<void> }>();

/** every original an upload began to store, and how its put ended */
const originalPuts: { key: string; settled: Promise<'stored' | 'failed'> }[] = [];
/** the originals of uploads begun since `from` (an index into originalPuts): none of them may be left in the store */
async function leftOriginals(from: number) {
  const puts = originalPuts.slice(from);
  await Promise.all(puts.map((p) => p.settled));
  return (await Promise.all(puts.map(async (p) => ((await h.images.get(p.key)) ? p.key : null)))).filter(Boolean);
}

function holdPut(key: string, when: 'before' | 'after') {
  let reached!: () => void;
  let release!: () => void;
  const wait = { reached: new Promise<void>((r) => (reached = r)), release: new Promise<void>((r) => (release = r)) };
  heldPuts.set(key, { when, reached, release: wait.release });
  return { reached: wait.reached, release };
}

beforeAll(async () => {
  h = await startHarness({
    ports: ({ images }) => ({
      images: {
        ...images,
        put: async (key, body, type, length) => {
          if (failingPuts.delete(key)) throw new Error(`no space left writing ${key}`);
          const held = heldPuts.get(key);
          heldPuts.delete(key);
          if (held?.when === 'before') {
            held.reached();
            await held.release;
          }
          const writing = images.put(key, body, type, length);
          if (key.startsWith('originals/')) originalPuts.push({ key, settled: writing.then(() => 'stored' as const, () => 'failed' as const) });
          await writing;
          if (held?.when === 'after') {
            held.reached();
            await held.release;
          }
        },
      },
    }),
  });
  m = await makeSellingMarketplace(h, 'photos', { min_images: 1 });
  session = (await signUp(h, m.secret, { email: 'photographer@example.com' })).token;
});
afterAll(() => h.close());

const newListing = async () => (await h.request({ method: 'POST', url: '/v1/me/listings', key: m.secret, session, payload: { title: 'Chair' } })).json().id as string;
const getListing = async (id: string) => (await h.request({ method: 'GET', url: `/v1/me/listings/${id}`, key: m.secret, session })).json();
const upload = (id: string, bytes: Buffer, type = 'image/jpeg') => uploadPhoto(h, m.secret, session, id, bytes, type);

/** A PNG whose header claims these dimensions, with almost no data: what a decompression bomb looks like. */
function pngHeaderOnly(width: number, height: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const c = Buffer.alloc(4);
    c.writeUInt32BE(crc(td));
    return Buffer.concat([len, td, c]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.alloc(1024))), chunk('IEND', Buffer.alloc(0))]);
}

describe('upload', () => {
  test('202 Image processing → the job makes the sizes → ready with width, height and urls', async () => {
    const id = await newListing();
    const res = await upload(id, await jpeg(2000, 1500));
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ id: expect.any(String), status: 'processing' });
    expect((await getListing(id)).images).toEqual([{ id: res.json().id, status: 'processing' }]);
    await h.runJobs();
    const [image] = (await getListing(id)).images;
    expect(image).toEqual({
      id: res.json().id,
      status: 'ready',
      width: 2000,
      height: 1500,
      urls: {
        thumb: `http://localhost:4000/v1/images/${image.id}/thumb.jpg`,
        medium: `http://localhost:4000/v1/images/${image.id}/medium.jpg`,
        large: `http://localhost:4000/v1/images/${image.id}/large.jpg`,
      },
    });
  });

  test('the type is read from the bytes: a PNG sent as image/jpeg is a PNG; GIF, PDF and empty bodies are refused', async () => {
    const id = await newListing();
    const png = await sharp({ create: { width: 256, height: 200, channels: 3, background: '#336699' } }).png().toBuffer();
    expect((await upload(id, png, 'image/jpeg')).statusCode).toBe(202);
    expect((await upload(id, png, 'application/octet-stream')).statusCode).toBe(202);
    const webp = await sharp({ create: { width: 256, height: 200, channels: 3, background: '#336699' } }).webp().toBuffer();
    expect((await upload(id, webp, 'text/plain')).statusCode).toBe(202);
    const gif = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } }).gif().toBuffer();
    const refusedGif = await upload(id, gif, 'image/png');
    expect(refusedGif.statusCode).toBe(415);
    expect(refusedGif.json()).toMatchObject({ code: 'unsupported_media_type' });
    expect((await upload(id, Buffer.from('%PDF-1.7 hello'), 'image/jpeg')).statusCode).toBe(415);
    expect((await upload(id, Buffer.alloc(0))).statusCode).toBe(422);
    expect((await getListing(id)).images).toHaveLength(3);
  });

  test('20 MiB is accepted, 20 MiB + 1 byte is 413 (refused from Content-Length, before the body is read)', async () => {
    const id = await newListing();
    const base = await jpeg(640, 480);
    const exact = Buffer.concat([base, Buffer.alloc(20 * MiB - base.length)]); // bytes after the JPEG's end are ignored by decoders
    expect(exact.length).toBe(20 * MiB);
    const ok = await upload(id, exact);
    expect(ok.statusCode, ok.body).toBe(202);
    const over = await upload(id, Buffer.concat([exact, Buffer.alloc(1)]));
    expect(over.statusCode).toBe(413);
    expect(over.json()).toMatchObject({ code: 'payload_too_large' });
    await h.runJobs();
    expect((await getListing(id)).images.map((i: { status: string }) => i.status)).toEqual(['ready']);
  });

  test('a chunked body past 20 MiB is cut off with 413 too: reading stops at the cap and nothing is stored', async () => {
    const id = await newListing();
    const { Readable } = await import('node:stream');
    const base = await jpeg(640, 480);
    let sent = 0;
    async function* forty() {
      for (let i = 0; i < 40; i++) {
        sent++;
        yield i === 0 ? Buffer.concat([base, Buffer.alloc(MiB - base.length)]) : Buffer.alloc(MiB);
      }
    }
    const from = originalPuts.length;
    const res = await h.app.inject({
      method: 'POST',
      url: `/v1/me/listings/${id}/images`,
      headers: { authorization: `Bearer ${m.secret}`, 'x-user-session': session, 'content-type': 'image/jpeg', 'transfer-encoding': 'chunked' },
      payload: Readable.from(forty()),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 'payload_too_large' });
    expect(res.headers.connection).toBe('close');
    expect(sent).toBeLessThanOrEqual(23); // 20 MiB, the chunk past it, and what the stream buffers ahead — not 40
    expect(originalPuts.length).toBe(from + 1); // it was being stored while it arrived …
    expect(await leftOriginals(from)).toEqual([]); // … and is gone
    expect((await getListing(id)).images).toEqual([]);
  });

  test('an upload cut off halfway (the client goes away) leaves no original and no row', async () => {
    const id = await newListing();
    const whole = Buffer.concat([await jpeg(1200, 900), Buffer.alloc(4 * MiB)]);
    const address = await h.app.listen({ port: 0, host: '127.0.0.1' });
    const from = originalPuts.length;
    const http = await import('node:http');
    const req = http.request(`${address}/v1/me/listings/${id}/images`, {
      method: 'POST',
      headers: { authorization: `Bearer ${m.secret}`, 'x-user-session': session, 'content-type': 'image/jpeg', 'content-length': String(whole.length) },
    });
    req.on('error', () => {});
    req.write(whole.subarray(0, 2 * MiB));
    while (originalPuts.length === from) await new Promise((r) => setTimeout(r, 5)); // the original is being written …
    req.destroy(); // … when the client goes away
    expect(await originalPuts[from]!.settled).toBe('failed');
    expect(await leftOriginals(from)).toEqual([]);
    expect((await getListing(id)).images).toEqual([]);
    expect((await upload(id, await jpeg(640, 480))).statusCode).toBe(202); // and the next upload is fine
  });

  test('a type refused from the first bytes stores nothing; a photo refused after its last byte is removed', async () => {
    const id = await newListing();
    const from = originalPuts.length;
    expect((await upload(id, Buffer.concat([Buffer.from('%PDF-1.7'), Buffer.alloc(MiB)]))).statusCode).toBe(415);
    expect(originalPuts.length).toBe(from);
    expect((await upload(id, await jpeg(100, 100))).statusCode).toBe(422); // under 200 px a side: known once it is all here
    expect(await leftOriginals(from)).toEqual([]);
    expect(originalPuts.length).toBe(from + 1);
  });

  test('50 megapixels is accepted (and processed); 50 000 001 pixels is 422 from the header', async () => {
    const id = await newListing();
    const big = await sharp({ create: { width: 10000, height: 5000, channels: 3, background: '#884422' } }).jpeg({ quality: 50 }).toBuffer();
    expect((await upload(id, big)).statusCode).toBe(202);
    const over = await upload(id, pngHeaderOnly(14041, 3561));
    expect(over.statusCode).toBe(422);
    expect(over.json().detail).toContain('14041×3561');
    await h.runJobs();
    expect((await getListing(id)).images).toMatchObject([{ status: 'ready', width: 10000, height: 5000 }]);
  }, 60_000);

  test('a decompression bomb (tiny file, 100000×100000 in its header) is refused in well under a second, undecoded', async () => {
    const id = await newListing();
    const bomb = pngHeaderOnly(100_000, 100_000);
    expect(bomb.length).toBeLessThan(200);
    const started = performance.now();
    const res = await upload(id, bomb, 'image/png');
    const ms = performance.now() - started;
    expect(res.statusCode).toBe(422);
    expect(ms).toBeLessThan(1000);
    expect((await getListing(id)).images).toEqual([]);
  });

  test('at most 20 photos per listing: the 21st is 409, also when uploads race', async () => {
    const id = await newListing();
    const small = await jpeg(200, 200);
    const results = await Promise.all(Array.from({ length: 24 }, () => upload(id, small)));
    const counts = results.reduce<Record<number, number>>((acc, r) => ({ ...acc, [r.statusCode]: (acc[r.statusCode] ?? 0) + 1 }), {});
    expect(counts).toEqual({ 202: 20, 409: 4 });
    expect((await getListing(id)).images).toHaveLength(20);
    const refused = results.find((r) => r.statusCode === 409)!;
    expect(refused.json().detail).toContain('at most 20 photos');
  });

  test('uploading needs the session: 401 without, 403 with a publishable key, 404 for a stranger', async () => {
    const id = await newListing();
    const bytes = await jpeg(200, 200);
    expect((await h.request({ method: 'POST', url: `/v1/me/listings/${id}/images`, key: m.secret, headers: { 'content-type': 'image/jpeg' }, payload: bytes })).statusCode).toBe(401);
    expect((await uploadPhoto(h, m.publishable, session, id, bytes)).statusCode).toBe(403);
    const stranger = (await signUp(h, m.secret, { email: 'stranger@example.com' })).token;
    expect((await uploadPhoto(h, m.secret, stranger, id, bytes)).statusCode).toBe(404);
    expect((await upload('not-a-uuid', bytes)).statusCode).toBe(404);
  });
});

describe('sizes and serving', () => {
  let imageId: string;
  beforeAll(async () => {
    const id = await newListing();
    const camera = await sharp({ create: { width: 4000, height: 3000, channels: 3, background: { r: 10, g: 120, b: 200 } } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .withExifMerge({ IFD0: { Make: 'TestCam', Model: 'GPS-1' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '59/1 19/1 45/1', GPSLongitudeRef: 'E', GPSLongitude: '18/1 4/1 7/1' } })
      .toBuffer();
    imageId = (await upload(id, camera)).json().id;
    await h.runJobs();
  });

  test('thumb 400 square, medium 800, large 1600 — upright (EXIF orientation applied)', async () => {
    const dims = [];
    for (const file of ['thumb', 'medium', 'large']) {
      const res = await h.request({ method: 'GET', url: `/v1/images/${imageId}/${file}.jpg` });
      expect(res.statusCode).toBe(200);
      const meta = await sharp(res.rawPayload).metadata();
      dims.push([file, meta.format, meta.width, meta.height]);
    }
    expect(dims).toEqual([
      ['thumb', 'jpeg', 400, 400],
      ['medium', 'jpeg', 600, 800],
      ['large', 'jpeg', 1200, 1600],
    ]);
  });

  test('no EXIF (so no GPS), ICC or XMP survives in any size; the original is not kept', async () => {
    for (const file of ['thumb', 'medium', 'large']) {
      const res = await h.request({ method: 'GET', url: `/v1/images/${imageId}/${file}.jpg` });
      const meta = await sharp(res.rawPayload).metadata();
      expect(meta.exif, file).toBeUndefined();
      expect(meta.xmp, file).toBeUndefined();
      expect(res.rawPayload.includes(Buffer.from('TestCam')), file).toBe(false);
      expect(res.rawPayload.includes(Buffer.from('GPS')), file).toBe(false);
    }
    expect(await h.images.get(`originals/${imageId}`)).toBeNull();
  });

  test('no key needed; immutable caching headers, ETag and 304', async () => {
    const res = await h.request({ method: 'GET', url: `/v1/images/${imageId}/medium.jpg` });
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const etag = res.headers.etag as string;
    expect(etag).toMatch(/^".+"$/);
    const again = await h.request({ method: 'GET', url: `/v1/images/${imageId}/medium.jpg`, headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  test('unknown images and files are 404 problems', async () => {
    for (const url of [`/v1/images/${crypto.randomUUID()}/thumb.jpg`, `/v1/images/${imageId}/original.jpg`, `/v1/images/${imageId}/thumb.png`, '/v1/images/nope/thumb.jpg']) {
      const res = await h.request({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type']).toBe('application/problem+json');
      expect(res.headers['cache-control']).toBeUndefined();
    }
  });
});

describe('order and delete', () => {
  test('reorder needs every id exactly once; the first becomes the main photo', async () => {
    const id = await newListing();
    const small = await jpeg(200, 200);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await upload(id, small)).json().id);
    const put = (image_ids: unknown) => h.request({ method: 'PUT', url: `/v1/me/listings/${id}/images/order`, key: m.secret, session, payload: { image_ids } });
    const reordered = await put([ids[2], ids[0], ids[1]]);
    expect(reordered.statusCode).toBe(200);
    expect(reordered.json().images.map((i: { id: string }) => i.id)).toEqual([ids[2], ids[0], ids[1]]);
    const missing = await put([ids[0], ids[1]]);
    expect(missing.json()).toMatchObject({ status: 422, errors: [{ location: 'body.image_ids' }] });
    const twice = await put([ids[0], ids[0], ids[1], ids[2]]);
    expect(twice.json().errors).toEqual([{ location: 'body.image_ids.1', message: 'Listed twice.', value: ids[0] }]);
    const foreign = crypto.randomUUID();
    expect((await put([...ids, foreign])).json().errors).toEqual([{ location: 'body.image_ids.3', message: 'Not a photo of this listing.', value: foreign }]);
  });

  test('delete a photo: 204 and its files are gone; an unknown photo is 404', async () => {
    const id = await newListing();
    const imageId = (await upload(id, await jpeg(200, 200))).json().id;
    await h.runJobs();
    expect((await h.request({ method: 'GET', url: `/v1/images/${imageId}/thumb.jpg` })).statusCode).toBe(200);
    const del = await h.request({ method: 'DELETE', url: `/v1/me/listings/${id}/images/${imageId}`, key: m.secret, session });
    expect(del.statusCode).toBe(204);
    expect((await getListing(id)).images).toEqual([]);
    expect((await h.request({ method: 'GET', url: `/v1/images/${imageId}/thumb.jpg` })).statusCode).toBe(404);
    expect((await h.request({ method: 'DELETE', url: `/v1/me/listings/${id}/images/${imageId}`, key: m.secret, session })).statusCode).toBe(404);
  });

  test('bytes that pass every check at upload but do not decode end as failed, with a reason the seller can read', async () => {
    const id = await newListing();
    const damaged = Buffer.from(await jpeg(300, 300));
    const sos = damaged.indexOf(Buffer.from([0xff, 0xda]));
    damaged[sos + 6] = 0x33; // the scan asks for Huffman tables the file does not have
    const res = await upload(id, damaged);
    expect(res.statusCode).toBe(202);
    await h.runJobs();
    const [image] = (await getListing(id)).images;
    expect(image).toEqual({ id: res.json().id, status: 'failed', failure_reason: expect.stringContaining('The photo could not be read: the file is damaged') });
    expect(image.failure_reason).toContain('Huffman table');
  });

  test('a size that cannot be stored fails the photo, and the sizes stored before it are removed', async () => {
    const id = await newListing();
    const bytes = await jpeg(2000, 1500);
    const res = await upload(id, bytes);
    const imageId = res.json().id as string;
    failingPuts.add(`images/${imageId}/large.jpg`); // thumb and medium are encoded (and stored) first
    await h.runJobs();
    expect((await getListing(id)).images).toEqual([{ id: imageId, status: 'failed', failure_reason: 'The photo could not be saved (a storage problem on our side); upload it again.' }]);
    for (const file of ['thumb', 'medium', 'large']) expect((await h.request({ method: 'GET', url: `/v1/images/${imageId}/${file}.jpg` })).statusCode).toBe(404);
  });
});

describe('photos at the edges', () => {
  const files = ['thumb', 'medium', 'large'];
  /** no size is served (404 problem), and the store holds no file of the photo, the original included */
  async function expectGone(imageId: string) {
    for (const file of files) {
      const res = await h.request({ method: 'GET', url: `/v1/images/${imageId}/${file}.jpg` });
      expect(res.statusCode, file).toBe(404);
      expect(await h.images.get(`images/${imageId}/${file}.jpg`), file).toBeNull();
    }
    expect(await h.images.get(`originals/${imageId}`)).toBeNull();
  }
  const deletePhoto = (listingId: string, imageId: string) => h.request({ method: 'DELETE', url: `/v1/me/listings/${listingId}/images/${imageId}`, key: m.secret, session });
  const deleteListing = (listingId: string) => h.request({ method: 'DELETE', url: `/v1/me/listings/${listingId}`, key: m.secret, session });
  const deletes = { photo: deletePhoto, listing: (listingId: string) => deleteListing(listingId) };

  test.each(['photo', 'listing'] as const)('upload → DELETE the %s at once → the job runs → no size is ever served', async (what) => {
    const id = await newListing();
    const imageId = (await upload(id, await jpeg(1200, 900))).json().id as string;
    expect((await deletes[what](id, imageId)).statusCode).toBe(204);
    await h.runJobs();
    await expectGone(imageId);
  });

  test.each([
    ['photo', 'before'],
    ['photo', 'after'],
    ['listing', 'before'],
    ['listing', 'after'],
  ] as const)('the job racing the delete: the %s is deleted while the job stores the large size (%s writing it) → 404 for good', async (what, when) => {
    const id = await newListing();
    const imageId = (await upload(id, await jpeg(2000, 1500))).json().id as string;
    const held = holdPut(`images/${imageId}/large.jpg`, when);
    const job = h.runJobs();
    await held.reached;
    expect((await deletes[what](id, imageId)).statusCode).toBe(204);
    held.release();
    await job;
    await expectGone(imageId);
    if (what === 'photo') expect((await getListing(id)).images).toEqual([]);
    else expect((await h.request({ method: 'GET', url: `/v1/me/listings/${id}`, key: m.secret, session })).statusCode).toBe(404);
  });

  test('a photo deleted after the job finished is gone too (the delete waits for the job, then removes the files)', async () => {
    const id = await newListing();
    const imageId = (await upload(id, await jpeg(1200, 900))).json().id as string;
    await h.runJobs();
    expect((await h.request({ method: 'GET', url: `/v1/images/${imageId}/large.jpg` })).statusCode).toBe(200);
    expect((await deletePhoto(id, imageId)).statusCode).toBe(204);
    await expectGone(imageId);
  });

  test('degenerate images are refused at upload (422) saying why: at least 200 px a side, at most 5:1', async () => {
    const id = await newListing();
    const refused = async (width: number, height: number) => {
      const res = await upload(id, await jpeg(width, height));
      expect(res.statusCode, `${width}×${height}`).toBe(422);
      expect(res.json()).toMatchObject({ code: 'validation_failed' });
      return res.json() as { detail: string; errors: { location: string; message: string }[] };
    };
    const sliver = await refused(1, 8000);
    expect(sliver.errors).toEqual([
      { location: 'body', message: 'The photo is 1×8000 pixels; each side must be at least 200 pixels.', value: null },
      { location: 'body', message: 'The photo is 1×8000 pixels; its longer side may be at most 5 times its shorter side.', value: null },
    ]);
    expect(sliver.detail).toBe(sliver.errors.map((e) => e.message).join(' '));
    expect((await refused(8000, 1)).errors).toHaveLength(2);
    expect((await refused(1, 1)).errors.map((e) => e.message)).toEqual(['The photo is 1×1 pixels; each side must be at least 200 pixels.']);
    expect((await refused(199, 200)).errors).toHaveLength(1);
    expect((await refused(200, 1001)).errors.map((e) => e.message)).toEqual(['The photo is 200×1001 pixels; its longer side may be at most 5 times its shorter side.']);
    expect((await getListing(id)).images).toEqual([]);
    for (const [w, hgt] of [[200, 200], [1000, 200], [200, 1000]]) expect((await upload(id, await jpeg(w!, hgt!))).statusCode, `${w}×${hgt}`).toBe(202);
    await h.runJobs();
    expect((await getListing(id)).images.map((i: { status: string; width: number; height: number }) => [i.status, i.width, i.height])).toEqual([
      ['ready', 200, 200],
      ['ready', 1000, 200],
      ['ready', 200, 1000],
    ]);
  });

  test('a truncated JPEG or PNG is refused at upload (422) saying it is cut off; nothing is stored', async () => {
    const id = await newListing();
    const from = originalPuts.length;
    const whole = await jpeg(640, 480);
    const png = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#336699' } }).png().toBuffer();
    for (const [cut, format] of [
      [whole.subarray(0, Math.floor(whole.length / 2)), 'JPEG'],
      [whole.subarray(0, whole.length - 2), 'JPEG'],
      [png.subarray(0, png.length - 12), 'PNG'],
    ] as const) {
      const res = await upload(id, cut);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({
        code: 'validation_failed',
        detail: `The ${format} file is cut off before the end of the image (an interrupted copy or download?); upload the whole file.`,
        errors: [{ location: 'body' }],
      });
    }
    expect((await getListing(id)).images).toEqual([]);
    expect(await leftOriginals(from)).toEqual([]);
  });

  test('the failure reason is for the seller: the public listing shows the failed photo without it', async () => {
    const id = (
      await h.request({
        method: 'POST',
        url: '/v1/me/listings',
        key: m.secret,
        session,
        payload: { title: 'Lamp', price: { amount: 50000, currency: 'SEK' }, location: { city: 'Lund', country: 'SE' }, delivery: { pickup: true } },
      })
    ).json().id as string;
    expect((await upload(id, await jpeg(800, 600))).statusCode).toBe(202);
    await h.runJobs();
    const published = await h.request({ method: 'POST', url: `/v1/me/listings/${id}/publish`, key: m.secret, session, payload: {} });
    expect(published.statusCode, published.body).toBe(200);
    const damaged = Buffer.from(await jpeg(300, 300));
    damaged[damaged.indexOf(Buffer.from([0xff, 0xda])) + 6] = 0x33;
    const failedId = (await upload(id, damaged)).json().id as string;
    await h.runJobs();
    const own = (await getListing(id)).images;
    expect(own[1]).toMatchObject({ id: failedId, status: 'failed', failure_reason: expect.stringContaining('could not be read') });
    const mine = (await h.request({ method: 'GET', url: '/v1/me/listings', key: m.secret, session })).json().items.find((l: { id: string }) => l.id === id);
    expect(mine.images[1]).toMatchObject({ id: failedId, failure_reason: expect.any(String) });
    const shop = (await h.request({ method: 'GET', url: `/v1/listings/${id}`, key: m.publishable })).json();
    expect(shop.images[1]).toEqual({ id: failedId, status: 'failed' });
  });
});
