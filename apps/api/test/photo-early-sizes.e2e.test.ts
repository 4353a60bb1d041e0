import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { allowEarlyDerivatives, earlyInFlight, IMAGE_SIZES, photoTrace, sizeKey, type PhotoTraceMessage } from '@hm/domain/images';
import { makeSellingMarketplace, signUp, startHarness, uploadPhoto, type Harness } from './harness.js';

/**
 * A photo's sizes started by its upload when the worker runs in the API's process
 * (early-derivatives.ts): the job takes them instead of reading the original back, and what it
 * stores is what the job makes from the stored original, byte for byte.
 */
let h: Harness;
let m: Awaited<ReturnType<typeof makeSellingMarketplace>>;
let session: string;
let disallow: (() => void) | undefined;
const traces: PhotoTraceMessage[] = [];
const listen = (msg: unknown) => traces.push(msg as PhotoTraceMessage);

beforeAll(async () => {
  h = await startHarness();
  m = await makeSellingMarketplace(h, 'early', { min_images: 1 });
  session = (await signUp(h, m.secret, { email: 'early@example.com' })).token;
  photoTrace.subscribe(listen);
});
afterEach(() => {
  disallow?.();
  disallow = undefined;
});
afterAll(async () => {
  photoTrace.unsubscribe(listen);
  await h.close();
});

const newListing = async () => (await h.request({ method: 'POST', url: '/v1/me/listings', key: m.secret, session, payload: { title: 'Lamp' } })).json().id as string;
const getListing = async (id: string) => (await h.request({ method: 'GET', url: `/v1/me/listings/${id}`, key: m.secret, session })).json();
const files = (imageId: string) => Promise.all(IMAGE_SIZES.map(async (size) => (await h.images.get(sizeKey(imageId, size)))?.body));
/** a camera-like JPEG: noise (real decode work), stored sideways (EXIF orientation 6) */
const cameraPhoto = () =>
  sharp({ create: { width: 2400, height: 1800, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 30 } } })
    .jpeg({ quality: 90 })
    .withMetadata({ orientation: 6 })
    .toBuffer();
const jobMarks = (imageId: string) => traces.find((t) => t.side === 'job' && t.imageId === imageId)?.marks.map((x) => x.name);

test('with a worker in this process the job takes the sizes the upload started: the same files, byte for byte, and no read back', async () => {
  const bytes = await cameraPhoto();
  const plainListing = await newListing();
  const plain = (await uploadPhoto(h, m.secret, session, plainListing, bytes)).json().id as string;
  await h.runJobs();
  expect(jobMarks(plain)).toContain('read'); // no worker here: the job read the original back

  disallow = allowEarlyDerivatives();
  const earlyListing = await newListing();
  const res = await uploadPhoto(h, m.secret, session, earlyListing, bytes);
  expect(res.statusCode).toBe(202);
  const early = res.json().id as string;
  expect(earlyInFlight()).toBe(1);
  await h.runJobs();
  const marks = jobMarks(early)!;
  expect(marks).toContain('early');
  expect(marks).not.toContain('read');

  const [a, b] = [(await getListing(plainListing)).images[0], (await getListing(earlyListing)).images[0]];
  expect(a).toMatchObject({ status: 'ready', width: 1800, height: 2400 });
  expect(b).toMatchObject({ status: 'ready', width: 1800, height: 2400 });
  const [before, after] = [await files(plain), await files(early)];
  expect(after.map((x, i) => x !== undefined && x.equals(before[i]!))).toEqual(IMAGE_SIZES.map(() => true));
  expect(await Promise.all(after.map((x) => sharp(x).metadata().then((md) => [md.format, md.width, md.height])))).toEqual([
    ['jpeg', 400, 400],
    ['jpeg', 600, 800],
    ['jpeg', 1200, 1600],
  ]);
  expect(await h.images.get(`originals/${early}`)).toBeNull();
});

test('a photo deleted before its job: the job stores nothing though its sizes were started, and nothing is left waiting', async () => {
  disallow = allowEarlyDerivatives();
  const listing = await newListing();
  const imageId = (await uploadPhoto(h, m.secret, session, listing, await cameraPhoto())).json().id as string;
  expect((await h.request({ method: 'DELETE', url: `/v1/me/listings/${listing}/images/${imageId}`, key: m.secret, session })).statusCode).toBe(204);
  await h.runJobs();
  expect(await files(imageId)).toEqual(IMAGE_SIZES.map(() => undefined));
  for (let i = 0; i < 500 && earlyInFlight() > 0; i++) await new Promise((r) => setTimeout(r, 10));
  expect(earlyInFlight()).toBe(0);
});

test('an upload its transaction refuses (not the seller’s listing) after its sizes started: 404, and nothing left being made', async () => {
  disallow = allowEarlyDerivatives();
  const stranger = '0192d5e9-1b2c-7d3e-9f4a-5b6c7d8e9fa0';
  const res = await uploadPhoto(h, m.secret, session, stranger, await cameraPhoto());
  expect(res.statusCode).toBe(404);
  expect(earlyInFlight()).toBe(1); // started before the listing was read, dropped with the refusal
  for (let i = 0; i < 500 && earlyInFlight() > 0; i++) await new Promise((r) => setTimeout(r, 10));
  expect(earlyInFlight()).toBe(0);
});
