import { afterAll, beforeAll, expect } from 'vitest';
import { makeMarketplace, startHarness, type Harness } from './harness.js';

/** Shared by the account test files: one harness, marketplaces "shop" and "other", and a recorder of every response body. */
export const MIN = 60 * 1000;
export const HOUR = 60 * MIN;
export const DAY = 24 * HOUR;

export interface AccountsSuite {
  h: Harness;
  keys: { secret: string; publishable: string };
  other: { secret: string; publishable: string };
  /** every response body seen, to prove no password hash or unrequested token ever leaves the API */
  bodies: string[];
  /** a new address each call */
  fresh(prefix?: string): string;
  /** a /v1 call with the shop's secret key (or `key`), its body recorded */
  call(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, opts?: { payload?: unknown; session?: string; key?: string }): ReturnType<Harness['request']>;
}

/** Registers the harness's beforeAll/afterAll; the fields are filled before the first test. */
export function accountsSuite(): AccountsSuite {
  let n = 0;
  const s = {
    bodies: [] as string[],
    fresh: (prefix = 'user') => `${prefix}${++n}@example.com`,
    async call(method, url, opts = {}) {
      const res = await s.h.request({ method, url, key: opts.key ?? s.keys.secret, session: opts.session, ...(opts.payload !== undefined ? { payload: opts.payload as object } : {}) });
      s.bodies.push(res.body);
      return res;
    },
  } as AccountsSuite;
  beforeAll(async () => {
    s.h = await startHarness();
    s.keys = await makeMarketplace(s.h, 'shop');
    s.other = await makeMarketplace(s.h, 'other');
  });
  afterAll(() => s.h.close());
  return s;
}

/** No response carried a password hash, and link tokens only ever travelled by email (or the test helper). */
export async function expectNoSecretsLeaked(s: AccountsSuite) {
  const all = s.bodies.join('\n');
  expect(all).not.toContain('$argon2id$');
  const [row] = await s.h.orm.em.getConnection().execute<{ tokens: number }[]>(`select count(*)::int as tokens from email_tokens`);
  const tokens = row!.tokens;
  expect(tokens).toBeGreaterThan(20);
  // links appear in test-helper bodies (that is their job); nowhere else
  const outsideHelper = s.bodies.filter((b) => !b.startsWith('{"items":'));
  expect(outsideHelper.join('\n')).not.toMatch(/token=[A-Za-z0-9_-]{43}/);
  expect(outsideHelper.filter((b) => b.includes('"token":"sess_')).every((b) => b.startsWith('{"session":'))).toBe(true);
}
