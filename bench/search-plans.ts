/**
 * Benchmark: the plans of the slowest search shapes at 1M listings, before and after the change that
 * keeps search flat (relevance tiers one after the other, the title's own index, the category+terms
 * index, the planner's guess choosing count or sample), in one database. "Before" is what the API ran
 * until then, rebuilt here statement by statement: the page as one statement scoring every match by
 * tier (the words as an opaque subquery), then `total` counted up to 10 001 and past that sampled —
 * explained in a transaction that drops the new indexes first (and rolls back). "After" is every
 * statement the search command runs now, recorded from the command itself (the planner's EXPLAIN it
 * asks for reads no rows and is left out).
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
import { RARE_WORD, seedBench } from './seed.js';

const LISTINGS = Number(process.env.BENCH_PLANS_LISTINGS ?? 1_000_000);

interface Shape {
  name: string;
  query: Record<string, string | string[]>;
  /** the same search as main's statements had it: its filters after marketplace and on_sale ($1), and q */
  before: { filters: string; values: unknown[]; q?: string };
}

/** The words of q as main's search had them: a subquery, opaque to the planner. */
const tsquery = (n: number, weights = '') =>
  `(select to_tsquery('simple', string_agg(quote_literal(w) || ':*${weights}', ' & ')) from regexp_split_to_table(hm_fold($${n}::text), '[^[:alnum:]]+') w where w <> '')`;

/**
 * The statements main's search command ran for a shape: the page (every match scored by tier when
 * there are words), the count up to 10 001, and past that its samples (a first of about 20 000
 * listings; when it held fewer than 4 000 matches, a second sized from it; a full count when the
 * first reckoned fewer than 50 000).
 */
async function statementsBefore(db: pg.Client, marketplaceId: string, onSale: number, b: Shape['before']) {
  const values = [marketplaceId, ...b.values, ...(b.q === undefined ? [] : [b.q])];
  const qn = values.length;
  const where = `l.marketplace_id = $1 and l.on_sale${b.filters ? ` and ${b.filters}` : ''}${b.q === undefined ? '' : ` and l.search_doc @@ ${tsquery(qn)}`}`;
  const page =
    b.q === undefined
      ? `select l.id, l.published_at as k0, l.id as k1 from listings l where ${where} order by l.published_at desc, l.id desc limit 25`
      : `select l.id, (case when l.search_doc @@ ${tsquery(qn, 'A')} then 3 when l.search_doc @@ ${tsquery(qn, 'AB')} then 2 else 1 end) as k0, l.published_at as k1, l.id as k2
           from listings l where ${where} order by k0 desc, l.published_at desc, l.id desc limit 25`;
  const out = [
    { text: page, values },
    { text: `select count(*)::int as n from (select 1 from listings l where ${where} limit 10001) m`, values },
  ];
  const capped = (await db.query({ text: out[1]!.text, values })).rows[0].n as number;
  if (capped <= 10_000) return out;
  const sample = (percent: number) => ({
    text: `select count(*) filter (where ${where.replace('l.marketplace_id = $1 and l.on_sale', 'true')})::int as matched, count(*)::int as looked
             from listings l tablesample system (${percent}) repeatable (0) where l.marketplace_id = $1 and l.on_sale`,
    values,
  });
  const first = (100 * 20_000) / onSale;
  const one = (await db.query(sample(first))).rows[0] as { matched: number; looked: number };
  out.push(sample(first));
  const estimate = (one.matched / one.looked) * onSale;
  if (estimate < 50_000) return [...out, { text: `select count(*)::int as n from listings l where ${where}`, values }];
  if (one.matched >= 4000) return out;
  return [...out, sample((first * 4000 * 1.25) / Math.max(one.matched, 1))];
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
    const subtree = `{${seed.categories.filter((c) => c.id === furniture || c.parentId === furniture).map((c) => c.id).join(',')}}`;
    const shapes: Shape[] = [
      { name: 'unselective word (q=chair)', query: { q: 'chair' }, before: { filters: '', values: [], q: 'chair' } },
      { name: 'prefix of 2 letters (q=ka)', query: { q: 'ka' }, before: { filters: '', values: [], q: 'ka' } },
      { name: `selective word (q=${RARE_WORD})`, query: { q: RARE_WORD }, before: { filters: '', values: [], q: RARE_WORD } },
      {
        name: 'category + 2 terms + price range',
        query: { category: furniture, term: [seed.brands[0]!, seed.brands[1]!], min_price: '100000', max_price: '1000000' },
        before: { filters: 'l.category_id = any($2::uuid[]) and l.term_ids && $3::uuid[] and l.price_base >= $4 and l.price_base <= $5', values: [subtree, `{${seed.brands[0]},${seed.brands[1]}}`, 100000, 1000000] },
      },
      { name: 'category, newest', query: { category: furniture }, before: { filters: 'l.category_id = any($2::uuid[])', values: [subtree] } },
    ];
    const db = new pg.Client({ connectionString: server.url });
    await db.connect();
    const explain = async (statements: { text: string; values: unknown[] }[], setup: string[] = []) => {
      const plan: string[] = [];
      let ms = 0;
      await db.query('begin');
      try {
        for (const s of setup) await db.query(s);
        for (const [i, s] of statements.entries()) {
          const rows = (await db.query({ text: `explain (analyze, buffers, costs off) ${s.text}`, values: s.values })).rows.map((r) => r['QUERY PLAN'] as string);
          ms += Number(/Execution Time: ([\d.]+) ms/.exec(rows.at(-1) ?? '')?.[1] ?? 0);
          plan.push(`-- statement ${i + 1}`, ...rows);
        }
      } finally {
        await db.query('rollback');
      }
      return { ms, plan };
    };
    const onSale = Number((await db.query(`select on_sale from shop_counts where marketplace_id = $1`, [marketplace.id])).rows[0].on_sale);
    for (const shape of shapes) {
      const recorded: { text: string; values: unknown[] }[] = [];
      const tem = tenantEm(orm, marketplace.id);
      const recorder = recordingExecute(tem, (s) => /from listings l/.test(s.text) && !s.text.startsWith('explain') && recorded.push(s));
      const rates = await loadRateBook(tem, marketplace, new Date().toISOString().slice(0, 10));
      const result = await searchListings({ ...localPorts({ dataDir: dir, mode: 'test' }), em: recorder, marketplace }, ZSearchInput.parse(shape.query), rates);
      const before = await explain(await statementsBefore(db, marketplace.id, onSale, shape.before), ['drop index listings_shop_title_idx', 'drop index listings_shop_category_terms_idx']);
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
    `The slowest search shapes at ${LISTINGS.toLocaleString('en-US')} listings, EXPLAIN (ANALYZE, BUFFERS) of each statement: **before** (main's statements until this change: the page scoring every match by relevance tier in one statement, the count capped at 10 001, and past that the sample rounds; explained with the new indexes dropped in a transaction rolled back after) and **after** (every statement the search command runs now, in order: the count — up to 10 001 when the planner expects few matches, on a first page not by relevance in the page statement itself, else a sample sized by its guess — then the page, relevance tiers one after the other until it is full). Execution times are the sum of the statements (they run one after the other in the request's transaction).`,
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
