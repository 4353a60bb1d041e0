import sharp from 'sharp';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { makeDerivatives } from './derivatives.js';
import { allowEarlyDerivatives, dropEarly, EARLY_KEEP_MS, EARLY_MAX, earlyInFlight, startEarly, takeEarly } from './early-derivatives.js';

const photo = (width = 1200, height = 900) =>
  sharp({ create: { width, height, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 30 } } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .toBuffer();

let disallow: (() => void) | undefined;
afterEach(() => {
  disallow?.();
  disallow = undefined;
  vi.useRealTimers();
});

/** Waits until no early sizes are being made. */
async function idle() {
  for (let i = 0; i < 1000 && earlyInFlight() > 0; i++) await new Promise((r) => setTimeout(r, 10));
  expect(earlyInFlight()).toBe(0);
}

describe('sizes started by the upload, for a job in the same process', () => {
  test('nothing starts while no worker runs in this process', async () => {
    expect(startEarly('a', await photo())).toBe(false);
    expect(takeEarly('a')).toBeUndefined();
  });

  test('the job takes exactly the files makeDerivatives makes from the same bytes, once', async () => {
    const bytes = await photo();
    disallow = allowEarlyDerivatives();
    expect(startEarly('a', bytes)).toBe(true);
    expect(startEarly('a', bytes)).toBe(false); // one per photo
    const early = takeEarly('a')!;
    expect(takeEarly('a')).toBeUndefined();
    const d = await early.derivatives;
    const [thumb, medium, large] = await Promise.all([d.sizes.thumb, d.sizes.medium, d.sizes.large]);
    const expected = await makeDerivatives(bytes);
    expect({ width: d.width, height: d.height }).toEqual({ width: 900, height: 1200 });
    expect([thumb.equals(expected.thumb), medium.equals(expected.medium), large.equals(expected.large)]).toEqual([true, true, true]);
  });

  test(`at most ${EARLY_MAX} at a time, counted until their sizes are made even when dropped`, async () => {
    const bytes = await photo(2400, 1800);
    disallow = allowEarlyDerivatives();
    await idle();
    const ids = Array.from({ length: EARLY_MAX + 1 }, (_, i) => `p${i}`);
    expect(ids.map((id) => startEarly(id, bytes))).toEqual([...ids.slice(0, EARLY_MAX).map(() => true), false]);
    for (const id of ids) dropEarly(id);
    expect(takeEarly(ids[0]!)).toBeUndefined();
    expect(startEarly('next', bytes)).toBe(false); // the dropped ones are still being made
    await idle();
    expect(startEarly('next', bytes)).toBe(true);
    dropEarly('next');
  });

  test('a worker stopping drops what it would have taken; bytes that cannot be decoded fail only for the job that takes them', async () => {
    const bytes = await photo();
    disallow = allowEarlyDerivatives();
    await idle();
    expect(startEarly('kept', bytes)).toBe(true);
    expect(startEarly('broken', bytes.subarray(0, 2000))).toBe(true);
    await expect(takeEarly('broken')!.derivatives.then((d) => Promise.all(Object.values(d.sizes)))).rejects.toThrow();
    disallow();
    disallow = undefined;
    expect(takeEarly('kept')).toBeUndefined();
    expect(startEarly('later', bytes)).toBe(false);
  });

  test(`one its job does not take within ${EARLY_KEEP_MS / 1000} s is dropped (a dropped broken one raises nothing)`, async () => {
    const bytes = await photo();
    disallow = allowEarlyDerivatives();
    await idle();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    expect(startEarly('slow', bytes)).toBe(true);
    expect(startEarly('broken', Buffer.from('\xff\xd8\xff not really a jpeg', 'latin1'))).toBe(true);
    vi.advanceTimersByTime(EARLY_KEEP_MS - 1);
    expect(takeEarly('slow')).toBeDefined();
    vi.advanceTimersByTime(1);
    expect(takeEarly('broken')).toBeUndefined();
    vi.useRealTimers();
    await idle();
  });
});
