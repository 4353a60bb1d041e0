import sharp from 'sharp';
import { describe, expect, test } from 'vitest';
import { jpeg, signUp, uploadPhoto } from './harness.js';
import { MiB, photosSuite, pngHeaderOnly } from './listing-images.suite.js';

/** Listing photos at upload: the limits, detection from bytes, what is stored while a body arrives, who may upload. */
const s = photosSuite();
const { originalPuts, leftOriginals, newListing, getListing, upload } = s;

describe('upload', () => {
  test('202 Image processing → the job makes the sizes → ready with width, height and urls', async () => {
    const id = await newListing();
    const res = await upload(id, await jpeg(2000, 1500));
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ id: expect.any(String), status: 'processing' });
    expect((await getListing(id)).images).toEqual([{ id: res.json().id, status: 'processing' }]);
    await s.h.runJobs();
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
    await s.h.runJobs();
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
    const res = await s.h.app.inject({
      method: 'POST',
      url: `/v1/me/listings/${id}/images`,
      headers: { authorization: `Bearer ${s.m.secret}`, 'x-user-session': s.session, 'content-type': 'image/jpeg', 'transfer-encoding': 'chunked' },
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
    const address = await s.h.app.listen({ port: 0, host: '127.0.0.1' });
    const from = originalPuts.length;
    const http = await import('node:http');
    const req = http.request(`${address}/v1/me/listings/${id}/images`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.m.secret}`, 'x-user-session': s.session, 'content-type': 'image/jpeg', 'content-length': String(whole.length) },
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
    await s.h.runJobs();
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
    expect((await s.h.request({ method: 'POST', url: `/v1/me/listings/${id}/images`, key: s.m.secret, headers: { 'content-type': 'image/jpeg' }, payload: bytes })).statusCode).toBe(401);
    expect((await uploadPhoto(s.h, s.m.publishable, s.session, id, bytes)).statusCode).toBe(403);
    const stranger = (await signUp(s.h, s.m.secret, { email: 'stranger@example.com' })).token;
    expect((await uploadPhoto(s.h, s.m.secret, stranger, id, bytes)).statusCode).toBe(404);
    expect((await upload('not-a-uuid', bytes)).statusCode).toBe(404);
  });
});
