import { describe, expect, test } from 'vitest';
import { ESTIMATE_KEPT_MS, keptEstimate } from './kept-estimates.js';

describe('estimates kept a short while', () => {
  const counter = (answers: { total: number; estimate: boolean }[]) => {
    let calls = 0;
    return { compute: async () => answers[Math.min(calls++, answers.length - 1)]!, calls: () => calls };
  };
  const isEstimate = (t: { estimate: boolean }) => t.estimate;

  test('an estimate: the same key within the window is not computed again; at the window’s end it is', async () => {
    let now = 1_000_000;
    const clock = () => now;
    const c = counter([
      { total: 190_000, estimate: true },
      { total: 191_000, estimate: true },
    ]);
    const key = ['total', 'm1', 1_000_000, 'q=chair'];
    expect(await keptEstimate(key, isEstimate, c.compute, clock)).toEqual({ total: 190_000, estimate: true });
    now += ESTIMATE_KEPT_MS - 1;
    expect(await keptEstimate(key, isEstimate, c.compute, clock)).toEqual({ total: 190_000, estimate: true });
    expect(c.calls()).toBe(1);
    now += 1;
    expect(await keptEstimate(key, isEstimate, c.compute, clock)).toEqual({ total: 191_000, estimate: true });
    expect(c.calls()).toBe(2);
  });

  test('an exact answer is never kept', async () => {
    const c = counter([
      { total: 10_000, estimate: false },
      { total: 9_999, estimate: false },
    ]);
    const key = ['total', 'm2', 50_000, 'q=chaise'];
    expect((await keptEstimate(key, isEstimate, c.compute)).total).toBe(10_000);
    expect((await keptEstimate(key, isEstimate, c.compute)).total).toBe(9_999);
    expect(c.calls()).toBe(2);
  });

  test('another marketplace, or another on-sale count, is another estimate', async () => {
    const c = counter([
      { total: 20_000, estimate: true },
      { total: 30_000, estimate: true },
      { total: 40_000, estimate: true },
    ]);
    expect((await keptEstimate(['total', 'm3', 100_000, 'q'], isEstimate, c.compute)).total).toBe(20_000);
    expect((await keptEstimate(['total', 'm4', 100_000, 'q'], isEstimate, c.compute)).total).toBe(30_000);
    expect((await keptEstimate(['total', 'm3', 100_001, 'q'], isEstimate, c.compute)).total).toBe(40_000);
    expect((await keptEstimate(['total', 'm3', 100_000, 'q'], isEstimate, c.compute)).total).toBe(20_000);
    expect(c.calls()).toBe(3);
  });

  test('what is kept is a copy: changing an answer does not change the next one', async () => {
    const key = ['facets', 'm5', { asked: ['category'], big: 12n }];
    const first = await keptEstimate(key, (f) => f.estimates, async () => ({ estimates: true, counts: [{ id: 'a', count: 11_000 }] }));
    first.counts[0]!.count = 1;
    const second = await keptEstimate(key, (f) => f.estimates, async () => ({ estimates: true, counts: [] as { id: string; count: number }[] }));
    expect(second.counts).toEqual([{ id: 'a', count: 11_000 }]);
  });
});
