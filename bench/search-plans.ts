/**
 * Benchmark: the plans of the slowest search shapes at 1M listings, before and after the search-totals
 * change, in one database. "Before" is what the API ran until then: the page and `total` as a full
 * count of the matches; "after" is every statement the search command runs now, recorded from the
 * command itself.
 * Each as EXPLAIN (ANALYZE, BUFFERS) into bench/results/search-plans-latest.md.
 *
 * Run: npm run -s bench:search-plans   (BENCH_PLANS_LISTINGS=1000000)
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '@hm/db/postgres';
import { createOrm, tenantEm } from '@hm/db/orm';
import { migrate } from '@hm/db/migrate';
import { MarketplaceSchema } from '@hm/db/entities';
import { freePort } from '@hm/db/testing/global-setup';
import { searchListings } from '../packages/domain/src/listing-search/commands/search-listings.js';
import { ZSearchInput } from '../packages/domain/src/listing-search/listing-search.schema.js';
import { loadRateBook } from '../packages/domain/src/rates/rate-book.js';
import { localPorts } from '@hm/domain/ports';
import { f, machine, recordingExecute, writeResults } from './lib.js';
import { seedBench } from './seed.js';

const LISTINGS = Number(process.env.BENCH_PLANS_LISTINGS ?? 1_000_000);

interface Shape {
  name: string;
  query: Record<string, string | string[]>;
}

async function main() {
  const started = new Date();
  const machineInfo = machine();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hm-bench-plans-'));
  chmodSync(dir, 0o755);
  const server = await startEmbeddedPostgres({ pgDir: path.join(dir, 'pg'), port: await freePort(), ephemeral: true });
  const out: { shape: string; total: number; estimate: boolean; before: { ms: number; plan: string[] }; after: { ms: number; plan: string[] } }[] = [];
  try {
    const orm = await createOrm(server.url, { poolMax: 4 });
    await migrate(orm);
    console.error(`bench:search-plans seeding ${LISTINGS.toLocaleString('en-US')} listings…`);
    const seed = await seedBench(server.url, { listings: LISTINGS, marketplace: 'bench' });
    await orm.em.getConnection().execute('vacuum analyze listings');
    const marketplace = await orm.em.fork().findOneOrFail(MarketplaceSchema, { id: seed.marketplaceId });
    const furniture = seed.categories.find((c) => c.slug === 'furniture')!.id;
    const shapes: Shape[] = [
      { name: 'unselective word (q=chair)', query: { q: 'chair' } },
      { name: 'prefix of 2 letters (q=ka)', query: { q: 'ka' } },
      { name: 'category + 2 terms + price range', query: { category: furniture, term: [seed.brands[0]!, seed.brands[1]!], min_price: '100000', max_price: '1000000' } },
      { name: 'category, newest', query: { category: furniture } },
    ];
    const db = new pg.Client({ connectionString: server.url });
    await db.connect();
    const explain = async (statements: { text: string; values: unknown[] }[]) => {
      const plan: string[] = [];
      let ms = 0;
      for (const [i, s] of statements.entries()) {
        const rows = (await db.query({ text: `explain (analyze, buffers, costs off) ${s.text}`, values: s.values })).rows.map((r) => r['QUERY PLAN'] as string);
        ms += Number(/Execution Time: ([\d.]+) ms/.exec(rows.at(-1) ?? '')?.[1] ?? 0);
        plan.push(`-- statement ${i + 1}`, ...rows);
      }
      return { ms, plan };
    };
    for (const shape of shapes) {
      const recorded: { text: string; values: unknown[] }[] = [];
      const tem = tenantEm(orm, marketplace.id);
      const recorder = recordingExecute(tem, (s) => /from listings l/.test(s.text) && recorded.push(s));
      const rates = await loadRateBook(tem, marketplace, new Date().toISOString().slice(0, 10));
      const result = await searchListings({ ...localPorts({ dataDir: dir, mode: 'test' }), em: recorder, marketplace }, ZSearchInput.parse(shape.query), rates);
      const page = recorded[0]!;
      const capped = recorded.find((s) => /limit 10001\) m$/.test(s.text))!;
      const fullCount = { text: capped.text.replace(/^select count\(\*\)::int as n from \(select 1 from listings l where (.*) limit 10001\) m$/s, 'select count(*)::int as total from listings l where $1'), values: capped.values };
      const before = await explain([page, fullCount]);
      const after = await explain(recorded);
      out.push({ shape: shape.name, total: result.total, estimate: !!result.totalIsEstimate, before, after });
      console.error(`  ${shape.name.padEnd(36)} total ${result.total}${result.totalIsEstimate ? ' (estimate)' : ''}  before ${f(before.ms, 1)} ms  after ${f(after.ms, 1)} ms`);
    }
    await db.end();
    await orm.close(true);
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const report = { date: started.toISOString(), machine: machineInfo, listings: LISTINGS, shapes: out };
  const m = machineInfo;
  const md = [
    `# search plans — ${report.date}`,
    '',
    `The slowest search shapes at ${LISTINGS.toLocaleString('en-US')} listings, EXPLAIN (ANALYZE, BUFFERS) of each statement: **before** (the page and a full count for \`total\`) and **after** (every statement the search command runs now: the page, the count capped at 10 001, and when there are more matches the sample rounds or the full count). Execution times are the sum of the statements (the API runs the page and the count side by side).`,
    '',
    `Machine: ${m.cpus} CPU (${m.cpuModel}), load average at start ${m.loadAverageAtStart.join(' / ')}, Node ${m.node}${m.commit ? `, commit ${m.commit}` : ''}.`,
    '',
    '| shape | total | before ms | after ms |',
    '|---|--:|--:|--:|',
    ...out.map((o) => `| ${o.shape} | ${o.total.toLocaleString('en-US')}${o.estimate ? ' (estimate)' : ''} | ${f(o.before.ms, 1)} | ${f(o.after.ms, 1)} |`),
    '',
    ...out.flatMap((o) => [`## ${o.shape}`, '', '### before', '', '```', ...o.before.plan, '```', '', '### after', '', '```', ...o.after.plan, '```', '']),
  ].join('\n');
  writeResults('search-plans', report.date, report, md);
  process.stdout.write(md.split('\n## ')[0] + '\n');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
