import sharp from 'sharp';
import { beforeAll, describe, expect, test } from 'vitest';
import { jpeg } from './harness.js';
import { photosSuite } from './listing-images.suite.js';

/** Listing photos after upload: processing into sizes, serving, order, delete, failures and the job racing a delete. */
const s = photosSuite();
const { failingPuts, originalPuts, leftOriginals, holdPut, newListing, getListing, upload } = s;

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
    await s.h.runJobs();
  });

  test('thumb 400 square, medium 800, large 1600 — upright (EXIF orientation applied)', async () => {
    const dims = [];
    for (const file of ['thumb', 'medium', 'large']) {
      const res = await s.h.request({ method: 'GET', url: `/v1/images/${imageId}/${file}.jpg` });
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
      const res = await s.h.request({ method: 'GET', url: `/v1/images/${imageId}/${file}.jpg` });
      const meta = await sharp(res.rawPayload).metadata();
      expect(meta.exif, file).toBeUndefined();
      expect(meta.xmp, file).toBeUndefined();
      expect(res.rawPayload.includes(Buffer.from('TestCam')), file).toBe(false);
      expect(res.rawPayload.includes(Buffer.from('GPS')), file).toBe(false);
    }
    expect(await s.h.images.get(`originals/${imageId}`)).toBeNull();
  });

  test('no key needed; immutable caching headers, ETag and 304', async () => {
    const res = await s.h.request({ method: 'GET', url: `/v1/images/${imageId}/medium.jpg` });
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const etag = res.headers.etag as string;
    expect(etag).toMatch(/^".+"$/);
    const again = await s.h.request({ method: 'GET', url: `/v1/images/${imageId}/medium.jpg`, headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  test('unknown images and files are 404 problems', async () => {
    for (const url of [`/v1/images/${crypto.randomUUID()}/thumb.jpg`, `/v1/images/${imageId}/original.jpg`, `/v1/images/${imageId}/thumb.png`, '/v1/images/nope/thumb.jpg']) {
      const res = await s.h.request({ method: 'GET', url });
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
    const put = (image_ids: unknown) => s.h.request({ method: 'PUT', url: `/v1/me/listings/${id}/images/order`, key: s.m.secret, session: s.session, payload: { image_ids } });
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
    await s.h.runJobs();
    expect((await s.h.request({ method: 'GET', url: `/v1/images/${imageId}/thumb.jpg` })).statusCode).toBe(200);
    const del = await s.h.request({ method: 'DELETE', url: `/v1/me/listings/${id}/images/${imageId}`, key: s.m.secret, session: s.session });
    expect(del.statusCode).toBe(204);
    expect((await getListing(id)).images).toEqual([]);
    expect((await s.h.request({ method: 'GET', url: `/v1/images/${imageId}/thumb.jpg` })).statusCode).toBe(404);
    expect((await s.h.request({ method: 'DELETE', url: `/v1/me/listings/${id}/images/${imageId}`, key: s.m.secret, session: s.session })).statusCode).toBe(404);
  });

  test('bytes that pass every check at upload but do not decode end as failed, with a reason the seller can read', async () => {
    const id = await newListing();
    const damaged = Buffer.from(await jpeg(300, 300));
    const sos = damaged.indexOf(Buffer.from([0xff, 0xda]));
    damaged[sos + 6] = 0x33; // the scan asks for Huffman tables the file does not have
    const res = await upload(id, damaged);
    expect(res.statusCode).toBe(202);
    await s.h.runJobs();
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
    await s.h.runJobs();
    expect((await getListing(id)).images).toEqual([{ id: imageId, status: 'failed', failure_reason: 'The photo could not be saved (a storage problem on our side); upload it again.' }]);
    for (const file of ['thumb', 'medium', 'large']) expect((await s.h.request({ method: 'GET', url: `/v1/images/${imageId}/${file}.jpg` })).statusCode).toBe(404);
  });
});

describe('photos at the edges', () => {
  const files = ['thumb', 'medium', 'large'];
  /** no size is served (404 problem), and the store holds no file of the photo, the original included */
  async function expectGone(imageId: string) {
    for (const file of files) {
      const res = await s.h.request({ method: 'GET', url: `/v1/images/${imageId}/${file}.jpg` });
      expect(res.statusCode, file).toBe(404);
      expect(await s.h.images.get(`images/${imageId}/${file}.jpg`), file).toBeNull();
    }
    expect(await s.h.images.get(`originals/${imageId}`)).toBeNull();
  }
  const deletePhoto = (listingId: string, imageId: string) => s.h.request({ method: 'DELETE', url: `/v1/me/listings/${listingId}/images/${imageId}`, key: s.m.secret, session: s.session });
  const deleteListing = (listingId: string) => s.h.request({ method: 'DELETE', url: `/v1/me/listings/${listingId}`, key: s.m.secret, session: s.session });
  const deletes = { photo: deletePhoto, listing: (listingId: string) => deleteListing(listingId) };

  test.each(['photo', 'listing'] as const)('upload → DELETE the %s at once → the job runs → no size is ever served', async (what) => {
    const id = await newListing();
    const imageId = (await upload(id, await jpeg(1200, 900))).json().id as string;
    expect((await deletes[what](id, imageId)).statusCode).toBe(204);
    await s.h.runJobs();
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
    const job = s.h.runJobs();
    await held.reached;
    expect((await deletes[what](id, imageId)).statusCode).toBe(204);
    held.release();
    await job;
    await expectGone(imageId);
    if (what === 'photo') expect((await getListing(id)).images).toEqual([]);
    else expect((await s.h.request({ method: 'GET', url: `/v1/me/listings/${id}`, key: s.m.secret, session: s.session })).statusCode).toBe(404);
  });

  test('a photo deleted after the job finished is gone too (the delete waits for the job, then removes the files)', async () => {
    const id = await newListing();
    const imageId = (await upload(id, await jpeg(1200, 900))).json().id as string;
    await s.h.runJobs();
    expect((await s.h.request({ method: 'GET', url: `/v1/images/${imageId}/large.jpg` })).statusCode).toBe(200);
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
    await s.h.runJobs();
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
      await s.h.request({
        method: 'POST',
        url: '/v1/me/listings',
        key: s.m.secret,
        session: s.session,
        payload: { title: 'Lamp', price: { amount: 50000, currency: 'SEK' }, location: { city: 'Lund', country: 'SE' }, delivery: { pickup: true } },
      })
    ).json().id as string;
    expect((await upload(id, await jpeg(800, 600))).statusCode).toBe(202);
    await s.h.runJobs();
    const published = await s.h.request({ method: 'POST', url: `/v1/me/listings/${id}/publish`, key: s.m.secret, session: s.session, payload: {} });
    expect(published.statusCode, published.body).toBe(200);
    const damaged = Buffer.from(await jpeg(300, 300));
    damaged[damaged.indexOf(Buffer.from([0xff, 0xda])) + 6] = 0x33;
    const failedId = (await upload(id, damaged)).json().id as string;
    await s.h.runJobs();
    const own = (await getListing(id)).images;
    expect(own[1]).toMatchObject({ id: failedId, status: 'failed', failure_reason: expect.stringContaining('could not be read') });
    const mine = (await s.h.request({ method: 'GET', url: '/v1/me/listings', key: s.m.secret, session: s.session })).json().items.find((l: { id: string }) => l.id === id);
    expect(mine.images[1]).toMatchObject({ id: failedId, failure_reason: expect.any(String) });
    const shop = (await s.h.request({ method: 'GET', url: `/v1/listings/${id}`, key: s.m.publishable })).json();
    expect(shop.images[1]).toEqual({ id: failedId, status: 'failed' });
  });
});
