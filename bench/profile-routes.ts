/**
 * Where a request's time goes: the API (buildApp, key cache on) under autocannon load on one route at
 * a time, with a V8 CPU profile per route (node:inspector) summarised by self time per package and
 * per function. Not a benchmark (no baseline): a flame-graph source. Profiles (.cpuprofile, open in
 * Chrome DevTools or speedscope) and the summary go to BENCH_PROFILE_DIR (default a temp dir).
 *
 * Run: npm run -s bench:profile   (BENCH_PROFILE_S=6, BENCH_PROFILE_DIR for the .cpuprofile files,
 *      BENCH_PROFILE_ROUTES=name,… for some routes only: marketplace, listing, search, console-support,
 *      console-users, events)
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { startEmbeddedPostgres } from '@hm/db/postgres';
import { createOrm, crossTenantEm, tenantEm } from '@hm/db/orm';
import { MarketplaceSchema } from '@hm/db/entities';
import { ensureOperatorWithPassword } from '@hm/domain/operators';
import { migrate } from '@hm/db/migrate';
import { freePort } from '@hm/db/testing/global-setup';
import { localPorts } from '@hm/domain/ports';
import { createApiKey } from '../packages/domain/src/api-keys/commands/manage-api-keys.js';
import { buildApp } from '../apps/api/src/app.js';
import { API_KEY_CACHE_MAX_MS } from '../apps/api/src/http/api-key-cache.js';
import { machine, writeResults } from './lib.js';
import { seedBench } from './seed.js';

const SECONDS = Number(process.env.BENCH_PROFILE_S ?? 6);
const out = process.env.BENCH_PROFILE_DIR ?? mkdtempSync(path.join(os.tmpdir(), 'hm-profile-'));

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount: number;
  children?: number[];
}

/**
 * Where the server's CPU goes, by stage: each sample goes to the first stage (in this order) with a
 * frame anywhere on its stack; idle time and the load generator (autocannon runs in this process) are
 * left out, so the shares are of the server's own CPU.
 */
const STAGES: [string, RegExp][] = [
  ['load generator', /autocannon\//],
  ['zod validation (input and output)', / .*\/zod\//],
  ['read transaction: tenant fork, begin, commit (MikroORM, Kysely, pool)', /^(begin|commit|rollback|fork|tenantEm|inTransaction) .*(mikro-orm|tenancy|trpc\.ts)/],
  ['SQL statements (MikroORM execute, Kysely, pg)', /^execute .*mikro-orm\/sql\/AbstractSqlConnection|pg\/lib\/|pg-protocol/],
  ['domain code (mappers, shop reads)', /packages\/domain\/src\/(listing|listings|listing-search|marketplace|catalog|shared)\//],
  ['operator session (token hash, cache)', /apps\/api\/src\/http\/console\.ts|packages\/domain\/src\/operators\//],
  ['tRPC call (middleware chain, context copies)', /@trpc\/server/],
  ['API key hook (sha256 of the header, cache)', /apps\/api\/src\/http\/(auth|api-key-cache)\.ts/],
  ['route match and input checks (URL, route table, text checks)', /packages\/rest\/src\/(routes|template|input|text|operation)\.ts|apps\/api\/src\/http\/client-input\.ts|^URL node:internal\/url/],
  ['response: serialise and write', /^(writePayload|onSendEnd) .*fastify|^(writeUtf8String|writeBuffer|writev) /],
];
const REST = 'the rest: Fastify routing and hooks, Node HTTP, GC';

function stages(profile: { nodes: Node[]; samples: number[]; timeDeltas?: number[] }, requests: number) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (n: Node) => `${n.callFrame.functionName} ${n.callFrame.url}`;
  const counts = new Map<string, number>();
  let server = 0;
  let serverUs = 0;
  for (const [i, id] of profile.samples.entries()) {
    const chain: string[] = [];
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) chain.push(label(byId.get(cur)!));
    if (/^\((idle|program)\)/.test(chain[0]!)) continue;
    const stage = STAGES.find(([, re]) => chain.some((l) => re.test(l)))?.[0] ?? REST;
    if (stage === 'load generator') continue;
    server++;
    serverUs += profile.timeDeltas?.[i] ?? 0;
    counts.set(stage, (counts.get(stage) ?? 0) + 1);
  }
  // sampled time on the server's own stacks per request: a rough CPU figure (the sampler's clock is wall time)
  const perRequest = (n: number) => (requests ? ((serverUs * n) / server / requests).toFixed(0).padStart(5) : '?');
  return [
    `server time per request ≈ ${perRequest(server).trim()} µs (sampled)`,
    ...[...counts].sort((a, b) => b[1] - a[1]).map(([name, n]) => `${((100 * n) / server).toFixed(0).padStart(5)} %  ${perRequest(n)} µs  ${name}`),
  ];
}

function summarise(profile: { nodes: Node[]; samples: number[]; timeDeltas?: number[] }, requests: number) {
  const total = profile.samples.length;
  const byPackage = new Map<string, number>();
  const byFunction = new Map<string, number>();
  for (const n of profile.nodes) {
    if (!n.hitCount) continue;
    const url = n.callFrame.url;
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1] ?? (url.includes('/packages/') || url.includes('/apps/') ? 'our code' : url.startsWith('node:') ? 'node' : n.callFrame.functionName || '(vm)');
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + n.hitCount);
    const fn = `${n.callFrame.functionName || '(anonymous)'} ${url.replace(/^.*node_modules\//, '').replace(/^.*\/(packages|apps)\//, '$1/')}:${n.callFrame.lineNumber + 1}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + n.hitCount);
  }
  const top = (m: Map<string, number>, k: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, k).map(([name, hits]) => `${((100 * hits) / total).toFixed(1).padStart(5)} %  ${name}`);
  return [`samples ${total}`, '', "the server's CPU by stage (idle and load generator left out):", ...stages(profile, requests), '', 'self time by package:', ...top(byPackage, 15), '', 'self time by function:', ...top(byFunction, 30)].join('\n');
}

async function main() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hm-bench-profile-'));
  chmodSync(dir, 0o755);
  const server = await startEmbeddedPostgres({ pgDir: path.join(dir, 'pg'), port: await freePort(), ephemeral: true });
  try {
    const orm = await createOrm(server.url, { poolMax: 10 });
    await migrate(orm);
    const seed = await seedBench(server.url, { listings: 5000, marketplace: 'bench', quiet: true });
    const em = orm.em.fork();
    const { token } = createApiKey(em, seed.marketplaceId, 'publishable', 'test');
    const { token: secret } = createApiKey(em, seed.marketplaceId, 'secret', 'test');
    await em.flush();
    // the back office's list pages: a signed-in viewer of the bench marketplace
    const benchMarketplace = await crossTenantEm(orm).findOneOrFail(MarketplaceSchema, { id: seed.marketplaceId });
    await ensureOperatorWithPassword(tenantEm(orm, seed.marketplaceId), benchMarketplace, { email: 'viewer@bench.example', role: 'viewer', password: 'bench operator password' }, new Date());
    const [listing] = await orm.em.getConnection().execute<{ id: string }[]>(`select id from listings where on_sale order by published_at desc limit 1`);
    const port = await freePort();
    const app = await buildApp({ orm, mode: 'test', apiUrl: `http://127.0.0.1:${port}`, ports: localPorts({ dataDir: dir, mode: 'test' }), apiKeyCacheMs: API_KEY_CACHE_MAX_MS });
    await app.listen({ port, host: '127.0.0.1' });
    const session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 200 });
    const signIn = await fetch(`http://127.0.0.1:${port}/console/v1/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ marketplace: 'bench', email: 'viewer@bench.example', password: 'bench operator password' }) });
    if (signIn.status !== 201) throw new Error(`operator sign-in: ${signIn.status} ${await signIn.text()}`);
    const operatorToken = ((await signIn.json()) as { token: string }).token;
    const all: Record<string, [string, string]> = {
      marketplace: ['/v1/marketplace', token],
      listing: [`/v1/listings/${listing!.id}`, token],
      search: ['/v1/listings?limit=24', token],
      'console-support': ['/console/v1/support?limit=24', operatorToken],
      'console-users': ['/console/v1/users?limit=24', operatorToken],
      events: ['/v1/events?limit=24', secret],
    };
    const only = process.env.BENCH_PROFILE_ROUTES?.split(',').map((n) => n.trim()).filter(Boolean);
    const routes = only?.length ? Object.fromEntries(only.map((n) => [n, all[n] ?? (() => { throw new Error(`BENCH_PROFILE_ROUTES: no route ${n} (${Object.keys(all).join(', ')})`); })()])) : all;
    const summaries: string[] = [];
    for (const [name, [url, bearer]] of Object.entries(routes)) {
      const run = (duration: number) =>
        new Promise<autocannon.Result>((resolve, reject) =>
          autocannon({ url: `http://127.0.0.1:${port}${url}`, connections: 10, duration, headers: { authorization: `Bearer ${bearer}` } }, (err, result) => (err ? reject(err) : resolve(result))),
        );
      await run(2);
      await session.post('Profiler.start');
      const result = await run(SECONDS);
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(path.join(out, `${name}.cpuprofile`), JSON.stringify(profile));
      const summary = `## ${name} ${url}: ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, non-2xx ${result.non2xx}\n\n${summarise(profile as never, result.requests.total)}`;
      summaries.push(summary);
      console.error(summary + '\n');
    }
    writeFileSync(path.join(out, 'summary.txt'), summaries.join('\n\n') + '\n');
    const date = new Date().toISOString();
    const m = machine();
    const md = [
      `# profile — ${date}`,
      '',
      `The API (key cache on) under autocannon, 10 connections, ${SECONDS} s per route after 2 s of warm-up, V8 CPU profile per route (sampling 200 µs), self time. 5 000 bench listings. Machine: ${m.cpus} CPU (${m.cpuModel}), load average at start ${m.loadAverageAtStart.join(' / ')}, Node ${m.node}${m.commit ? `, commit ${m.commit}` : ''}. Throughput here is not a benchmark (no baseline; other work shares the CPUs).`,
      '',
      ...summaries.map((s) => s.replace(/^## (.*)$/m, '## $1\n\n```') + '\n```\n'),
    ].join('\n');
    writeResults('profile', date, { date, machine: m, summaries }, md);
    console.error(`profiles in ${out}`);
    await app.close();
    await orm.close(true);
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
