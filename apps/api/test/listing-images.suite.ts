import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll } from 'vitest';
import { makeSellingMarketplace, signUp, startHarness, uploadPhoto, type Harness } from './harness.js';

/**
 * Shared by the listing photo test files: a harness whose image store can fail or hold a `put`, a
 * marketplace that needs one photo, a signed-in seller, and the calls on that seller's listings.
 */
export const MiB = 1024 * 1024;
export type Market = Awaited<ReturnType<typeof makeSellingMarketplace>>;

export interface PhotosSuite {
  h: Harness;
  m: Market;
  session: string;
  /** keys whose next `put` fails (a full disk, a store that is down), to see a photo fail halfway */
  failingPuts: Set<string>;
  /** every original an upload began to store, and how its put ended */
  originalPuts: { key: string; settled: Promise<'stored' | 'failed'> }[];
  /** the originals of uploads begun since `from` (an index into originalPuts): none of them may be left in the store */
  leftOriginals(from: number): Promise<unknown[]>;
  /** the next `put` of `key` waits until released, just before or just after writing: a job caught halfway */
  holdPut(key: string, when: 'before' | 'after'): { reached: Promise<void>; release: () => void };
  newListing(): Promise<string>;
  getListing(id: string): Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  upload(id: string, bytes: Buffer, type?: string): ReturnType<typeof uploadPhoto>;
}

/** Registers the harness's beforeAll/afterAll; the fields are filled before the first test. */
export function photosSuite(): PhotosSuite {
  const heldPuts = new Map<string, { when: 'before' | 'after'; reached: () => void; release: Promise<void> }>();
  const s = { failingPuts: new Set<string>(), originalPuts: [] } as unknown as PhotosSuite;
  s.leftOriginals = async (from) => {
    const puts = s.originalPuts.slice(from);
    await Promise.all(puts.map((p) => p.settled));
    return (await Promise.all(puts.map(async (p) => ((await s.h.images.get(p.key)) ? p.key : null)))).filter(Boolean);
  };
  s.holdPut = (key, when) => {
    let reached!: () => void;
    let release!: () => void;
    const wait = { reached: new Promise<void>((r) => (reached = r)), release: new Promise<void>((r) => (release = r)) };
    heldPuts.set(key, { when, reached, release: wait.release });
    return { reached: wait.reached, release };
  };
  s.newListing = async () => (await s.h.request({ method: 'POST', url: '/v1/me/listings', key: s.m.secret, session: s.session, payload: { title: 'Chair' } })).json().id as string;
  s.getListing = async (id) => (await s.h.request({ method: 'GET', url: `/v1/me/listings/${id}`, key: s.m.secret, session: s.session })).json();
  s.upload = (id, bytes, type = 'image/jpeg') => uploadPhoto(s.h, s.m.secret, s.session, id, bytes, type);

  beforeAll(async () => {
    s.h = await startHarness({
      ports: ({ images }) => ({
        images: {
          ...images,
          put: async (key, body, type, length) => {
            if (s.failingPuts.delete(key)) throw new Error(`no space left writing ${key}`);
            const held = heldPuts.get(key);
            heldPuts.delete(key);
            if (held?.when === 'before') {
              held.reached();
              await held.release;
            }
            const writing = images.put(key, body, type, length);
            if (key.startsWith('originals/')) s.originalPuts.push({ key, settled: writing.then(() => 'stored' as const, () => 'failed' as const) });
            await writing;
            if (held?.when === 'after') {
              held.reached();
              await held.release;
            }
          },
        },
      }),
    });
    s.m = await makeSellingMarketplace(s.h, 'photos', { min_images: 1 });
    s.session = (await signUp(s.h, s.m.secret, { email: 'photographer@example.com' })).token;
  });
  afterAll(() => s.h.close());
  return s;
}

/** A PNG whose header claims these dimensions, with almost no data: what a decompression bomb looks like. */
export function pngHeaderOnly(width: number, height: number): Buffer {
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
