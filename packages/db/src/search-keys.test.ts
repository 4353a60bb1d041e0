import { expect, inject, test } from 'vitest';
import pg from 'pg';
import { uuidv7 } from './ids.js';
import { createTestDatabase } from './testing/index.js';

/**
 * A listing's `search_keys` and a search's (Migration20261202010000_search_keys): for every price and
 * range on and around the buckets' edges (0, 1, 2, 5 × 10^k, ±1, the largest bigint), with the range's
 * ends open or not, the keys find every listing in the range (nothing is lost), and what else they
 * find is in the range's two end buckets, never above a maximum that is an edge; and they find nothing
 * outside the category or without the terms. Under row-level security (the role search runs as) the
 * condition is searched in the keys index.
 */
test('search keys: every price in a range is found, and only the end buckets add others', async () => {
  const db = new pg.Client({ connectionString: await createTestDatabase(inject('adminDatabaseUrl')) });
  await db.connect();
  try {
    const [chairs, furniture, lamps, hay, muuto, good] = [uuidv7(), uuidv7(), uuidv7(), uuidv7(), uuidv7(), uuidv7()];
    const edges = [0n, 1n, 2n, 5n, 10n, 100000n, 200000n, 500000n, 1000000n, 10n ** 18n, 5n * 10n ** 18n];
    const prices = [...new Set(edges.flatMap((e) => [e - 1n, e, e + 1n]).concat([9223372036854775807n, 9223372036854775806n, 3n, 7n, 150n, 999999n]))].filter((p) => p >= 0n);
    const bounds = [null, ...prices];
    // each listing price's keys and each range's keys computed once, then every pair compared
    const listing = `g.lkeys`; // chairs in furniture, Hay and Good
    const inRange = `p >= coalesce(lo, 0) and (hi is null or p <= hi)`;
    const grid = (keys: string) =>
      `(with lk as materialized (select p, hm_listing_search_keys(array[$1::uuid, $2::uuid], array[$3::uuid, $4::uuid], p) as keys from unnest($5::bigint[]) p),
             sk as materialized (select lo, hi, ${keys} as keys from unnest($6::bigint[]) lo, unnest($6::bigint[]) hi)
        select lk.p, sk.lo, sk.hi, lk.keys as lkeys, sk.keys as skeys from lk, sk) g`;
    const params = [chairs, furniture, hay, good, prices.map(String), bounds.map((b) => (b === null ? null : String(b)))];
    const rows = async (query: string, extra: unknown[] = []) => (await db.query<{ p: string; lo: string | null; hi: string | null }>(query, [...params, ...extra])).rows.map((r) => `${r.p} in [${r.lo}, ${r.hi}]`);

    // the range's listings in the category with a chosen term, in every combination the search asks for
    for (const [category, terms] of [
      [furniture, [hay, muuto]],
      [chairs, [hay]],
      [null, [muuto, hay]],
      [null, [good]],
      [furniture, null],
      [chairs, null],
    ] as const) {
      const keys = `g.skeys`;
      const pairs = grid(`hm_search_keys($7::uuid, $8::uuid[], lo, hi)`);
      const extra = [category, terms && `{${terms.join(',')}}`];
      const lost = await rows(`select p, lo, hi from ${pairs} where ${inRange} and not (${listing} && ${keys})`, extra);
      expect(lost, `${category} ${terms}`).toEqual([]);
      // found outside the range: only in the bucket of either end, and never above a maximum on an edge
      const extraFound = await rows(
        `select p, lo, hi from ${pairs} where not (${inRange}) and (${listing} && ${keys})
            and (hm_price_bucket(p) not in (hm_price_bucket(greatest(coalesce(lo, 0), 0)), coalesce(hm_price_bucket(hi), -1)) or (hi is not null and p > hi and hi = hm_price_bucket(hi)) or lo > hi)`,
        extra,
      );
      expect(extraFound, `${category} ${terms}`).toEqual([]);
    }
    // another category, another brand, both none: nothing
    for (const [category, terms] of [
      [lamps, null],
      [lamps, [hay]],
      [null, [muuto]],
      [furniture, [muuto]],
    ] as const) {
      const found = await rows(`select p, lo, hi from ${grid(`hm_search_keys($7::uuid, $8::uuid[], lo, hi)`)} where ${listing} && g.skeys limit 5`, [category, terms && `{${terms.join(',')}}`]);
      expect(found, `${category} ${terms}`).toEqual([]);
    }
    // under row-level security (the role search runs as) the keys are searched in their index
    const m = uuidv7();
    await db.query(`insert into marketplaces (id, name, slug, locales, listing_rules, shipping, created_at, updated_at) values ($1, 'M', $2, '{en}', '{}', '{}', now(), now())`, [m, `m-${m}`]);
    const seller = uuidv7();
    await db.query(`insert into users (id, marketplace_id, email, email_normalized, created_at, updated_at) values ($1, $2, 's@example.com', 's@example.com', now(), now())`, [seller, m]);
    // 5 000 listings on sale, a twentieth with Hay, prices spread over three decades
    await db.query(
      `insert into listings (id, marketplace_id, seller_id, status, locale, created_at, updated_at, term_ids, price_amount, price_currency, price_base)
       select gen_random_uuid(), $1, $2, 'published', 'en', now(), now(), case when i % 20 = 0 then array[$3::uuid] else '{}' end, p, 'SEK', p
         from generate_series(1, 5000) i, lateral (select (1000 + (i * 7919) % 1000000)::bigint p) x`,
      [m, seller, hay],
    );
    await db.query(`analyze listings`);
    await db.query(`begin`);
    await db.query(`set local role hm_app`);
    await db.query(`select set_config('hm.marketplace_id', $1, true)`, [m]);
    const plan = await db.query(`explain select l.id from listings l where l.marketplace_id = $1 and l.on_sale and l.search_keys && hm_search_keys($2::uuid, $3::uuid[], $4::bigint, $5::bigint)`, [m, null, `{${hay}}`, 100000, 200000]);
    await db.query(`rollback`);
    expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).toContain('Bitmap Index Scan on listings_shop_search_keys_idx');
    // no price (no rate to the default currency): no keys, so no price range finds it
    expect((await db.query(`select hm_listing_search_keys(array[$1::uuid], '{}', null) as k`, [chairs])).rows).toEqual([{ k: [] }]);
  } finally {
    await db.end();
  }
}, 60_000);
