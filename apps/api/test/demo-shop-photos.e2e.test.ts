import { afterEach, expect, test } from 'vitest';
import { ListingImageSchema, ListingSchema } from '@hm/db/entities';
import { crossTenantEm } from '@hm/db/orm';
import { seedDemo } from '@hm/domain/demo';
import { seedDemoShop } from '@hm/domain/demo-shop';
import type { ImageStore } from '@hm/domain/images';
import { startWorker, type Worker } from '@hm/jobs/worker';
import { startHarness, type Harness } from './harness.js';

/**
 * A demo photo the worker cannot process (its stored bytes are not a picture): the seed draws it
 * again; if it keeps failing, the listing stays a draft rather than go on sale without its photo.
 */
let h: Harness;
let worker: Worker;
const logins = { buyer: { email: 'buyer@demo.example', password: 'buyer password 1' }, seller: { email: 'seller@demo.example', password: 'seller password 1' } };
afterEach(async () => {
  await worker?.stop();
  await h?.close();
});

/** The store the seed uploads through: originals number `spoil(n)` are stored as bytes no decoder reads. */
function spoiling(inner: ImageStore, spoil: (n: number) => boolean): ImageStore & { originals(): number } {
  let originals = 0;
  return {
    originals: () => originals,
    name: inner.name,
    put: async (key, body, type, length) => {
      if (!key.startsWith('originals/') || !spoil(originals++)) return inner.put(key, body, type, length);
      if (!Buffer.isBuffer(body)) for await (const _chunk of body); // an upload's body is read to its end, then spoiled
      return inner.put(key, Buffer.from('not a photo at all'), type);
    },
    get: (key) => inner.get(key),
    delete: (keys) => inner.delete(keys),
  };
}

async function seedWith(spoil: (n: number) => boolean, listings: number) {
  h = await startHarness();
  await seedDemo(h.orm, { mode: 'test', storefrontUrl: 'https://demo.example', today: '2026-11-22' });
  // the store spoils originals after the upload received them: its jobs must work from what the store
  // holds, not from the sizes an upload to this process starts from the bytes it received
  worker = await startWorker({ connectionString: h.databaseUrl, concurrency: 2, deps: { orm: h.orm, mode: 'test', mailFrom: 'no-reply@demo.example', ports: h.ports }, earlySizes: false });
  const lines: string[] = [];
  const images = spoiling(h.ports.images, spoil);
  const result = await seedDemoShop({ orm: h.orm, ports: { ...h.ports, images } }, { logins, listings, log: (l) => lines.push(l), pollMs: 100 });
  const em = crossTenantEm(h.orm);
  // the shop's listings (the demo's work listings for the team, `… (for review)`, are demo-attention.e2e.test.ts's)
  const shop = (await em.find(ListingSchema, {}, { filters: false })).filter((l) => !l.title.endsWith('(for review)'));
  return { result, lines, uploads: images.originals(), listings: shop, images: await em.find(ListingImageSchema, {}, { filters: false }) };
}

test('a photo that fails once is drawn again, and the listing goes on sale with all its photos ready', async () => {
  const { result, listings, images, uploads } = await seedWith((n) => n === 0, 2);
  expect(result).toMatchObject({ listings: 2, onSale: 2, complete: true });
  expect(listings.map((l) => l.status)).toEqual(['published', 'published']);
  expect(images.length).toBeGreaterThanOrEqual(2);
  expect(uploads).toBe(images.length + 1); // the spoiled one, drawn and uploaded again
  expect(images.every((i) => i.status === 'ready')).toBe(true); // the failed one was deleted
}, 120_000);

test('a photo that keeps failing leaves its listing a draft, said in one line; the seed still ends', async () => {
  const { result, lines, listings, images, uploads } = await seedWith(() => true, 1);
  expect(result).toMatchObject({ listings: 1, onSale: 0, complete: true });
  expect(listings.map((l) => l.status)).toEqual(['draft']);
  expect(images.some((i) => i.status === 'failed')).toBe(true);
  // drawn again twice (each time only the photos that had failed by then), then left
  expect(uploads).toBeGreaterThanOrEqual(images.length + 2);
  expect(uploads).toBeLessThanOrEqual(images.length * 3);
  expect(lines).toContainEqual(expect.stringMatching(/^Demo shop: ".+" stays a draft: a photo of it could not be processed\.$/));
}, 120_000);
