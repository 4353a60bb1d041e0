/**
 * Benchmark: webhook delivery (issue 27), in one run, one phase after the other:
 *
 *   burst     a quarter of BENCH_EVENTS as sign-ups (`POST /v1/users`, 8 at once) as fast as the API
 *             takes them, each appending a `user.created` event in its transaction, delivered as a
 *             signed webhook to a receiver on 127.0.0.1 (test mode allows http://localhost) by the job
 *             worker: the delivery throughput (first commit → last delivery) and the lag of a queue.
 *   without   the storefront mix (storefront-mix.ts, the one bench:load uses) at a steady BENCH_EVENTS_MIX_RATE
 *             (100 requests/s, below bench:load's knee: the same load on both sides, so p95 is compared at
 *             equal throughput) over 8 connections for T seconds, beside sign-ups at a steady rate R, with the endpoint disabled: events
 *             appended, nothing delivered. R is half the burst's delivery throughput (BENCH_EVENTS_RATE_SHARE);
 *             T enough for half the rest at R, within 10..BENCH_EVENTS_MIX_S (60) seconds.
 *   with      the same mix, the same steady sign-ups, the endpoint enabled: every event delivered while
 *             the mix runs. The mix's p95 here against `without` is the cost of deliveries to the API
 *             (target ≤ 1.2×); the lag of these events, produced below the throughput, is what one
 *             delivery costs (commit → job picked up → signed → sent).
 *   tail      the rest of BENCH_EVENTS as a second burst, so the run delivers BENCH_EVENTS in all
 *             (the burst row counts both bursts).
 *
 * The API and the worker share one process, as `npm start` runs them (START_WORKER), with the
 * worker's default concurrency (WORKER_CONCURRENCY, or BENCH_WORKER_CONCURRENCY); Postgres embedded;
 * the receiver and the load generator in this process. Lag of an event: its arrival at the receiver
 * minus its `created_at` (its transaction's time on the API's clock: the same machine).
 *
 * Run: npm run -s bench:events   (BENCH_EVENTS, default 2 000: about 2 minutes; 10 000 for the issue's full run)
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import { readConfig } from '../apps/api/src/config.js';
import { f, machine, percentile, percentileOfSorted, runBench, startApiStack, writeResults } from './lib.js';
import { seedBench } from './seed.js';
import { MIX, checkMix, mixUsers, runMix, storefrontMix } from './storefront-mix.js';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 2000);
const BURST = Math.ceil(EVENTS / 4);
const MIX_S = Number(process.env.BENCH_EVENTS_MIX_S ?? 60);
const PRODUCERS = 8;
const RATE_SHARE = Number(process.env.BENCH_EVENTS_RATE_SHARE ?? 0.5);
const MIX_CONNECTIONS = Number(process.env.BENCH_EVENTS_MIX_CONNECTIONS ?? 8);
const MIX_RATE = Number(process.env.BENCH_EVENTS_MIX_RATE ?? 100);
const LISTINGS = Number(process.env.BENCH_EVENTS_LISTINGS ?? 5000);
const WORKER_CONCURRENCY = Number(process.env.BENCH_WORKER_CONCURRENCY ?? readConfig({} as NodeJS.ProcessEnv).WORKER_CONCURRENCY);
const P95_RATIO_TARGET = 1.2;
const DRAIN_TIMEOUT_MS = 120_000;

type Phase = 'burst' | 'tail' | 'off' | 'steady';
interface Arrival {
  at: number;
  created: number;
}

async function main() {
  const started = new Date();
  const machineInfo = machine();
  const arrivals: Record<Phase, Map<string, Arrival>> = { burst: new Map(), tail: new Map(), off: new Map(), steady: new Map() };
  const samples: { headers: Record<string, string>; body: string }[] = [];
  let duplicates = 0;
  const waiting: { phase: Phase; count: number; resolve: () => void }[] = [];
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const at = Date.now();
      const id = String(req.headers['webhook-id']);
      const event = JSON.parse(body) as { created_at: string; data: { object: { email: string } } };
      const phase = event.data.object.email.split('-')[0] as Phase;
      const seen = arrivals[phase] ?? arrivals.off;
      if (seen.has(id)) duplicates++;
      else seen.set(id, { at, created: Date.parse(event.created_at) });
      if (samples.length < 20) samples.push({ headers: req.headers as Record<string, string>, body });
      res.end('ok');
      for (const w of waiting.filter((w) => arrivals[w.phase].size >= w.count)) {
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve();
      }
    });
  });
  const delivered = (phase: Phase, count: number) =>
    Promise.race([
      new Promise<void>((resolve) => (arrivals[phase].size >= count ? resolve() : waiting.push({ phase, count, resolve }))),
      sleep(DRAIN_TIMEOUT_MS, undefined, { ref: false }).then(() => {
        throw new Error(`${phase}: only ${arrivals[phase].size} of ${count} delivered ${DRAIN_TIMEOUT_MS / 1000} s after the last sign-up`);
      }),
    ]);
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  const stack = await startApiStack('events', {
    worker: { concurrency: WORKER_CONCURRENCY, log: (level, message) => (level === 'error' || process.env.BENCH_LOG ? console.error(`worker ${level}: ${message}`) : undefined) },
  });
  const { apiUrl, operator } = stack;
  try {
    const { keys } = await operator.marketplace.create({ name: 'Bench', slug: 'bench', currencies: ['SEK', 'EUR', 'USD'], locales: ['en', 'sv'], storefront_url: 'http://127.0.0.1:3000' });
    console.error(`bench:events seeding ${f(LISTINGS)} listings and the mix's shoppers…`);
    const seed = await seedBench(stack.db.url, { listings: LISTINGS, marketplace: 'bench', quiet: true });
    await stack.orm.em.getConnection().execute('vacuum analyze');
    const ids = (await stack.orm.em.getConnection().execute<{ id: string }[]>('select id from listings where marketplace_id = ? and on_sale order by random() limit 2000', [seed.marketplaceId])).map((r) => r.id);
    const users = await mixUsers(apiUrl, keys.secret); // before the endpoint: their events are not delivered
    const next = storefrontMix({ keys, seed, ids, users });
    await checkMix(apiUrl, next);
    const { endpoint, secret } = await operator.webhooks.create({ marketplace: 'bench', url, events: 'user.created' });

    const signUpMs: Record<Phase, number[]> = { burst: [], tail: [], off: [], steady: [] };
    const signUp = async (phase: Phase, i: number) => {
      const t = performance.now();
      const res = await fetch(`${apiUrl}/v1/users`, { method: 'POST', headers: { authorization: `Bearer ${keys.secret}`, 'content-type': 'application/json' }, body: JSON.stringify({ email: `${phase}-${i}@example.com` }) });
      if (res.status !== 201) throw new Error(`POST /v1/users answered ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
      signUpMs[phase].push(performance.now() - t);
    };

    /** As fast as 8 producers go: how long the sign-ups took. */
    const burstOf = async (phase: Phase, count: number) => {
      let n = 0;
      const t0 = Date.now();
      await Promise.all(
        Array.from({ length: PRODUCERS }, async () => {
          for (let i = n++; i < count; i = n++) await signUp(phase, i);
        }),
      );
      const ms = Date.now() - t0;
      await delivered(phase, count);
      return ms;
    };

    // 1. burst
    console.error(`bench:events burst: ${f(BURST)} sign-ups, ${PRODUCERS} at once, delivered to ${url} (worker concurrency ${WORKER_CONCURRENCY})…`);
    let burstProducedMs = await burstOf('burst', BURST);
    const rate = Math.max(1, Math.floor(RATE_SHARE * lagStats(arrivals.burst).deliveredPerS));
    const seconds = Math.min(MIX_S, Math.max(10, Math.ceil((EVENTS - BURST) / 2 / rate)));
    const STEADY = Math.min(EVENTS - BURST, rate * seconds);
    const TAIL = EVENTS - BURST - STEADY;

    /** Sign-ups at `rate` per second (open loop: each sent on time whatever the answers), `count` of them. */
    const steady = async (phase: Phase, count: number) => {
      const t0 = performance.now();
      const inflight = new Set<Promise<void>>();
      for (let i = 0; i < count; i++) {
        const wait = t0 + (i * 1000) / rate - performance.now();
        if (wait > 0) await sleep(wait);
        const p: Promise<void> = signUp(phase, i).finally(() => inflight.delete(p));
        inflight.add(p);
      }
      await Promise.all(inflight);
    };
    /** The mix for `seconds` beside `count` steady sign-ups: its latencies. */
    const mixBeside = async (phase: Phase, count: number) => {
      await runMix(apiUrl, next, MIX_CONNECTIONS, 2, undefined, undefined, MIX_RATE); // settle: connections open, pools warm
      const latencies: number[] = [];
      const [r] = await Promise.all([runMix(apiUrl, next, MIX_CONNECTIONS, seconds, undefined, (ms) => latencies.push(ms), MIX_RATE), steady(phase, count)]);
      latencies.sort((a, b) => a - b);
      return { requests: r.requests.total, rps: r.requests.total / r.duration, p50: percentileOfSorted(latencies, 0.5), p95: percentileOfSorted(latencies, 0.95), p99: percentileOfSorted(latencies, 0.99), failed: r.non2xx + r.errors + r.timeouts };
    };

    // 2. without deliveries: the endpoint off, the same sign-ups (events appended, none sent)
    console.error(`bench:events storefront mix, ${MIX_RATE} requests/s over ${MIX_CONNECTIONS} connections, ${seconds} s, beside ${f(rate)} sign-ups/s — without deliveries…`);
    await operator.webhooks.update({ marketplace: 'bench', id: endpoint.id, enabled: false });
    const without = await mixBeside('off', STEADY);
    // 3. with deliveries
    console.error(`bench:events … and with every event delivered…`);
    await operator.webhooks.update({ marketplace: 'bench', id: endpoint.id, enabled: true });
    const w0 = Date.now();
    const withDeliveries = await mixBeside('steady', STEADY);
    const mixEndedAt = Date.now();
    await delivered('steady', STEADY);
    const steadyDrainMs = Date.now() - w0;
    const steadyStats = lagStats(arrivals.steady);
    // 4. the rest, as a second burst
    if (TAIL > 0) {
      console.error(`bench:events the other ${f(TAIL)} as a burst…`);
      burstProducedMs += await burstOf('tail', TAIL);
    }
    const burst = lagStats(arrivals.burst, arrivals.tail);
    const deliveredDuringMix = [...arrivals.steady.values()].filter((a) => a.at <= mixEndedAt).length;

    const failedJobs = (await stack.orm.em.getConnection().execute<{ n: string }[]>(`select count(*) as n from graphile_worker.jobs where task_identifier = 'deliver-webhook' and last_error is not null`))[0]!.n;
    const wh = new Webhook(secret);
    let verified = 0;
    for (const s of samples) {
      const now = Date.now;
      Date.now = () => Number(s.headers['webhook-timestamp']) * 1000;
      try {
        wh.verify(s.body, s.headers);
        verified++;
      } finally {
        Date.now = now;
      }
    }
    const ratio = withDeliveries.p95 / without.p95;
    const result = {
      events: { delivered: arrivals.burst.size + arrivals.tail.size + arrivals.steady.size, duplicates, notSubscribedButDelivered: arrivals.off.size, failedJobs: Number(failedJobs), verified: `${verified}/${samples.length}` },
      burst: { events: BURST + TAIL, producedMs: burstProducedMs, signUpsPerS: (BURST + TAIL) / (burstProducedMs / 1000), signUpP95Ms: percentile([...signUpMs.burst, ...signUpMs.tail], 0.95), ...burst },
      steady: { events: STEADY, rate, seconds, signUpP95Ms: percentile(signUpMs.steady, 0.95), deliveredDuringMix, drainMs: steadyDrainMs, ...steadyStats },
      mix: { connections: MIX_CONNECTIONS, rate: MIX_RATE, seconds, without, with: withDeliveries, p95Ratio: ratio, target: P95_RATIO_TARGET, met: ratio <= P95_RATIO_TARGET },
      loadAverageAtEnd: os.loadavg().map((l) => Number(l.toFixed(2))),
    };
    const report = { benchmark: 'events', started: started.toISOString(), machine: machineInfo, settings: { events: EVENTS, producers: PRODUCERS, mixSecondsMax: MIX_S, mixRate: MIX_RATE, rateShare: RATE_SHARE, mixConnections: MIX_CONNECTIONS, listings: LISTINGS, workerConcurrency: WORKER_CONCURRENCY, mix: MIX }, result };
    const row = (name: string, s: ReturnType<typeof lagStats>, events: number, producer: string) =>
      `| ${name} | ${f(events)} | ${producer} | ${f(s.deliveredPerS)} | ${f(s.lagP50Ms)} ms | ${f(s.lagP95Ms)} ms | ${f(s.lagMaxMs)} ms |`;
    const mixRow = (name: string, m: typeof without) => `| ${name} | ${f(m.rps)} | ${f(m.p50, 1)} | ${f(m.p95, 1)} | ${f(m.p99, 1)} | ${m.failed} |`;
    const md = [
      `# Events benchmark (${started.toISOString()})`,
      '',
      `Machine: ${machineInfo.cpus} × ${machineInfo.cpuModel}, ${machineInfo.memoryGiB} GiB, Node ${machineInfo.node}, load average at start ${machineInfo.loadAverageAtStart.join(' / ')}, at end ${result.loadAverageAtEnd.join(' / ')}, commit ${machineInfo.commit ?? '?'}.`,
      '',
      `${f(EVENTS)} \`user.created\` events (one per \`POST /v1/users\`) delivered as signed webhooks to a receiver on 127.0.0.1 by the job worker (concurrency ${WORKER_CONCURRENCY}) in the API's process, as \`npm start\` runs it. API, worker, Postgres, receiver and load generator share the machine.`,
      '',
      '| Phase | Events | Producer | Delivered/s (first commit → last delivery) | Lag p50 | Lag p95 | Lag max |',
      '|---|--:|---|--:|--:|--:|--:|',
      row(TAIL > 0 ? `burst (${f(BURST)} first, ${f(TAIL)} after the mix)` : 'burst', burst, BURST + TAIL, `${PRODUCERS} at once, ${f(result.burst.signUpsPerS)} sign-ups/s`),
      row('steady, beside the mix', steadyStats, STEADY, `${f(rate)} sign-ups/s (${RATE_SHARE} × the burst's throughput)`),
      '',
      `${f(result.events.delivered)} of ${f(EVENTS)} delivered, ${duplicates} twice, ${result.events.failedJobs} delivery jobs with an error, ${result.events.notSubscribedButDelivered} sent while the endpoint was off; signatures verified on a sample: ${result.events.verified}. The burst's lag is mostly its queue (events produced faster than delivered); the steady lag is what one delivery costs.`,
      '',
      `Storefront mix (${Object.entries(MIX).map(([k, v]) => `${k} ${v * 100} %`).join(', ')}; ${f(LISTINGS)} listings) sent at ${f(MIX_RATE)} requests/s over ${MIX_CONNECTIONS} connections (req/s below: what the API answered), ${seconds} s each, beside ${f(rate)} sign-ups/s, one after the other:`,
      '',
      '| Storefront mix | req/s | p50 ms | p95 ms | p99 ms | failed |',
      '|---|--:|--:|--:|--:|--:|',
      mixRow('without deliveries (endpoint off)', without),
      mixRow(`with deliveries (${f(deliveredDuringMix)} delivered during it)`, withDeliveries),
      '',
      `**p95 with deliveries / without: ${f(ratio, 2)}×** (target ≤ ${P95_RATIO_TARGET}×: ${result.mix.met ? 'met' : 'not met'}).`,
      '',
    ].join('\n');
    writeResults('events', started.toISOString(), report, md);
    console.log(md);
  } finally {
    receiver.close();
    await stack.stop();
  }
}

/** Throughput (first commit → last delivery of each part, added up) and lag from commit to delivery of a phase's events. */
function lagStats(...parts: Map<string, Arrival>[]) {
  const all = parts.flatMap((p) => [...p.values()]);
  const lags = all.map((a) => a.at - a.created);
  const ms = parts.filter((p) => p.size).reduce((sum, p) => sum + Math.max(...[...p.values()].map((a) => a.at)) - Math.min(...[...p.values()].map((a) => a.created)), 0);
  return { deliveredPerS: all.length / (ms / 1000), lagP50Ms: percentile(lags, 0.5), lagP95Ms: percentile(lags, 0.95), lagMaxMs: Math.max(...lags) };
}

runBench('events', main, 600_000);
