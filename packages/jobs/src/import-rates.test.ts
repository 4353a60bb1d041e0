import { createServer } from 'node:http';
import { expect, inject, test } from 'vitest';
import { createOrm } from '@hm/db/orm';
import { createTestDatabase } from '@hm/db/testing';
import { httpRateSource, importReferenceRates } from '@hm/domain/rates';

test('import-rates stores the day’s reference rates for each marketplace’s currencies and queues its reprice', async () => {
  const orm = await createOrm(await createTestDatabase(inject('adminDatabaseUrl')), { poolMax: 2 });
  const db = orm.em.getConnection();
  for (const [slug, currencies] of [
    ['se', '{SEK,EUR}'],
    ['us', '{USD}'],
    ['jp', '{JPY}'],
  ] as const) {
    await db.execute(
      `insert into marketplaces (id, name, slug, currencies, locales, listing_rules, shipping, created_at, updated_at) values (gen_random_uuid(), ?, ?, ?, '{en}', '{}', '{}', now(), now())`,
      [slug, slug, currencies],
    );
  }
  const server = createServer((req, res) => {
    res.writeHead(req.url === '/latest' ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ date: '2026-11-20', base: 'EUR', rates: { SEK: 11.52, USD: 1.05, XYZ: 3 } }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  try {
    const result = await importReferenceRates({ orm, rates: httpRateSource(`http://127.0.0.1:${port}/latest`) });
    expect(result).toEqual({ date: '2026-11-20', marketplaces: 3, rates: 3 });
    const rows = await db.execute<{ slug: string; quote: string; rate: string }[]>(
      `select m.slug, r.quote, r.rate::text as rate from exchange_rates r join marketplaces m on m.id = r.marketplace_id order by 1, 2`,
    );
    // se: SEK (its currency) and USD (base EUR is its currency); us: USD; jp: nothing it uses; each the exact decimal published
    expect(rows).toEqual([
      { slug: 'se', quote: 'SEK', rate: '11.52' },
      { slug: 'se', quote: 'USD', rate: '1.05' },
      { slug: 'us', quote: 'USD', rate: '1.05' },
    ]);
    const jobs = await db.execute<{ key: string }[]>(`select key from graphile_worker.jobs where task_identifier = 'reprice-listings' order by key`);
    expect(jobs).toHaveLength(2);
    await expect(importReferenceRates({ orm, rates: httpRateSource(`http://127.0.0.1:${port}/missing`) })).rejects.toThrow('answered 404');
  } finally {
    server.close();
    await orm.close(true);
  }
});
