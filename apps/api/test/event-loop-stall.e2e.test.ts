import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeMarketplace, startHarness, type Harness } from './harness.js';

/**
 * Hostile bodies must not stall the event loop (issue 24): a body of ~1 MB full of unknown keys,
 * or of invalid values, is refused in time linear in its size and bounded, with at most 100 problems
 * listed. Measured as the users of the API see it: a /health loop runs beside the hostile requests,
 * and no gap between two of its answers may exceed 100 ms while they are sent one after another.
 */
let h: Harness;
let publishable: string;
beforeAll(async () => {
  h = await startHarness();
  publishable = (await makeMarketplace(h, 'shop')).publishable;
});
afterAll(() => h.close());

const MAX_GAP_MS = 100;

/** `{"email": …, "u00000": 1, …}`: just under 1 MB, 90 000 unknown keys. */
function unknownKeys(n = 90_000): string {
  const keys: string[] = [];
  for (let i = 0; i < n; i++) keys.push(`"u${String(i).padStart(5, '0')}":1`);
  return `{"email":"reader@example.com",${keys.join(',')}}`;
}

/** Runs `work` while a /health loop measures the longest wait between two of its answers. */
async function longestGapDuring(work: () => Promise<unknown>): Promise<number> {
  let running = true;
  let longest = 0;
  const loop = (async () => {
    let last = performance.now();
    while (running) {
      const res = await h.app.inject({ method: 'GET', url: '/health' });
      expect(res.statusCode).toBe(200);
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
      await new Promise((r) => setImmediate(r));
    }
  })();
  try {
    await work();
  } finally {
    running = false;
    await loop;
  }
  return longest;
}

const post = (url: string, payload: string) => h.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', authorization: `Bearer ${publishable}` }, payload });

describe('hostile bodies do not stall the event loop', () => {
  test('90 000 unknown keys in ~1 MB: 422 listing 100 problems and how many more, quickly', async () => {
    const body = unknownKeys();
    expect(body.length).toBeLessThan(1_048_576);
    const res = await post('/v1/newsletter/subscribers', body);
    expect(res.statusCode).toBe(422);
    const problem = res.json();
    expect(problem.errors).toHaveLength(101);
    expect(problem.errors[0]).toEqual({ location: 'body.u00000', message: 'Unknown field.', value: 1 });
    expect(problem.errors[100]).toMatchObject({ location: 'body', value: 89_900 });
    expect(problem.errors[100].message).toContain('89900 more');
    expect(res.body.length).toBeLessThan(20_000);
  });

  test('10 hostile bodies, on a public and a session endpoint, while /health answers: no request blocks it over 100 ms', async () => {
    const body = unknownKeys();
    const array = `{"email":"reader@example.com","first_name":[${Array.from({ length: 200_000 }, () => '1').join(',')}]}`;
    // warm up (the first request compiles the schemas)
    await post('/v1/newsletter/subscribers', '{"email":"warm@example.com"}');
    // one after another: each request's own blocking is what the loop's gap shows (at once, the
    // in-process injection would parse several bodies in one tick, which sockets do not)
    const bodies: [string, string][] = [
      ...Array.from({ length: 4 }, (): [string, string] => ['/v1/newsletter/subscribers', body]),
      ...Array.from({ length: 4 }, (): [string, string] => ['/v1/sessions', body.replace('"email"', '"password":"x","email"')]),
      ['/v1/newsletter/subscribers', array],
      ['/v1/newsletter/subscribers', unknownKeys(70_000).replace(/:1/g, ':"x"')],
    ];
    const gaps: number[] = [];
    // each body thrice, its smallest gap kept: a body that blocks does so every time, while a pause of the
    // machine (other processes on the 2 cores, a major GC) does not repeat
    for (const [url, payload] of bodies) {
      const tries: number[] = [];
      for (let i = 0; i < 3; i++) tries.push(await longestGapDuring(async () => expect([400, 403, 422]).toContain((await post(url, payload)).statusCode)));
      gaps.push(Math.min(...tries));
    }
    expect(Math.max(...gaps), `longest /health gap per request: ${gaps.map((g) => g.toFixed(0)).join(', ')} ms`).toBeLessThan(MAX_GAP_MS);
  });
});
