import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { RARE_WORD, seedBench } from '../../../bench/seed.js';
import { startHarness, type Harness } from './harness.js';

/**
 * `total` of GET /v1/listings: exact up to 10 000 matches; above, an estimate within ±5 % with
 * `total_is_estimate: true` (from a sample of the listings on sale; counted when that is cheaper).
 * 80 000 bench listings, each answer checked against a count in SQL.
 */
const LISTINGS = 80_000;
let h: Harness;
let key: string;
let db: pg.Client;
let marketplaceId: string;
beforeAll(async () => {
  h = await startHarness();
  const seed = await seedBench(h.databaseUrl, { listings: LISTINGS, marketplace: 'big', quiet: true });
  marketplaceId = seed.marketplaceId;
  key = (await h.console.keys.create({ marketplace: 'big', kind: 'publishable' })).token;
  db = new pg.Client({ connectionString: h.databaseUrl });
  await db.connect();
}, 180_000);
afterAll(async () => {
  await db?.end();
  await h?.close();
});

async function search(query: string) {
  const res = await h.request({ method: 'GET', url: `/v1/listings?limit=1&${query}`, key });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { total: number; total_is_estimate?: true };
}
async function exact(condition: string, ...values: unknown[]) {
  const { rows } = await db.query(`select count(*)::int as n from listings where marketplace_id = $1 and on_sale and ${condition}`, [marketplaceId, ...values]);
  return rows[0].n as number;
}

test('a few matches: exact, no total_is_estimate', async () => {
  const n = await exact(`search_doc @@ to_tsquery('simple', $2)`, `${RARE_WORD}:*`);
  expect(n).toBeGreaterThan(0);
  expect(await search(`q=${RARE_WORD}`)).toEqual({ items: expect.any(Array), next_cursor: expect.any(String), total: n });
});

test('under 10 000 matches (q=chair): exact', async () => {
  const n = await exact(`search_doc @@ to_tsquery('simple', 'chair:*')`);
  expect(n).toBeGreaterThan(1000);
  expect(n).toBeLessThanOrEqual(10_000);
  const page = await search('q=chair');
  expect(page.total).toBe(n);
  expect(page.total_is_estimate).toBeUndefined();
});

test.each([
  ['every priced listing (min_price=0)', 'min_price=0', `price_base >= 0`, true],
  ['the same, cheapest first', 'min_price=0&sort=price_asc', `price_base >= 0`, true],
  ['2-letter prefix (q=ka)', 'q=ka', `search_doc @@ to_tsquery('simple', 'ka:*')`, false],
])('more than 10 000 matches, %s: within ±5 %%, said to be an estimate when it is one', async (_name, query, condition, mustEstimate) => {
  const n = await exact(condition);
  expect(n).toBeGreaterThan(10_000);
  const page = await search(query);
  expect(Math.abs(page.total - n) / n, `${page.total} vs ${n}`).toBeLessThanOrEqual(0.05);
  expect(page.total).toBeGreaterThan(10_000);
  if (mustEstimate) expect(page.total_is_estimate).toBe(true);
  if (page.total_is_estimate === undefined) expect(page.total).toBe(n);
});

test('no filters: the exact on-sale count, never an estimate', async () => {
  const page = await search('');
  expect(page).toEqual({ items: expect.any(Array), next_cursor: expect.any(String), total: await exact('true') });
});
