/**
 * Benchmark: webhook delivery (issue 27).
 *
 * N sign-ups (`POST /v1/users`, 8 at once) over HTTP to the real server, each appending a
 * `user.created` event in its transaction; one webhook endpoint subscribed to it, a local receiver
 * on 127.0.0.1 (test mode allows http://localhost), the normal job worker (concurrency 4, as
 * `npm start`) delivering. Lag of an event: its arrival at the receiver minus its `created_at` (the
 * time of its transaction, on the API's clock, the same machine). Reported: deliveries per second
 * (first event to last delivery), lag p50/p95/max, duplicates, signatures checked on a sample.
 *
 * Run: npm run -s bench:events   (BENCH_EVENTS, default 2 000; 10 000 for the full run)
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { f, machine, percentile, runBench, startApiStack, writeResults } from './lib.js';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 2000);
const PRODUCERS = 8;
const WORKER_CONCURRENCY = Number(process.env.BENCH_WORKER_CONCURRENCY ?? 4);

async function main() {
  const started = new Date();
  const machineInfo = machine();
  const arrivals = new Map<string, { at: number; created: number }>();
  const samples: { headers: Record<string, string>; body: string }[] = [];
  let duplicates = 0;
  let allIn: () => void = () => {};
  const done = new Promise<void>((r) => (allIn = r));
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const at = Date.now();
      const id = String(req.headers['webhook-id']);
      if (arrivals.has(id)) duplicates++;
      else arrivals.set(id, { at, created: Date.parse((JSON.parse(body) as { created_at: string }).created_at) });
      if (samples.length < 20) samples.push({ headers: req.headers as Record<string, string>, body });
      res.end('ok');
      if (arrivals.size >= EVENTS) allIn();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  const { apiUrl, operator, stop } = await startApiStack('events', {
    worker: { concurrency: WORKER_CONCURRENCY, log: (level, message) => (level === 'error' || process.env.BENCH_LOG ? console.error(`worker ${level}: ${message}`) : undefined) },
  });
  try {
    const { keys } = await operator.marketplace.create({ name: 'Bench', slug: 'bench', currencies: ['SEK'], locales: ['en'], storefront_url: 'http://127.0.0.1:3000' });
    const { secret } = await operator.webhooks.create({ marketplace: 'bench', url, events: 'user.created' });
    console.error(`bench:events ${f(EVENTS)} sign-ups, ${PRODUCERS} at once, delivered to ${url}…`);
    let next = 0;
    const signUpMs: number[] = [];
    const producer = async () => {
      for (let i = next++; i < EVENTS; i = next++) {
        const t = performance.now();
        const res = await fetch(`${apiUrl}/v1/users`, { method: 'POST', headers: { authorization: `Bearer ${keys.secret}`, 'content-type': 'application/json' }, body: JSON.stringify({ email: `bench-${i}@example.com` }) });
        if (res.status !== 201) throw new Error(`POST /v1/users answered ${res.status}: ${await res.text()}`);
        await res.arrayBuffer();
        signUpMs.push(performance.now() - t);
      }
    };
    const t0 = Date.now();
    await Promise.all(Array.from({ length: PRODUCERS }, producer));
    const producedMs = Date.now() - t0;
    const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`only ${arrivals.size} of ${EVENTS} delivered after 120 s`)), 120_000).unref());
    await Promise.race([done, timeout]);
    const lags = [...arrivals.values()].map((a) => a.at - a.created);
    const first = Math.min(...[...arrivals.values()].map((a) => a.created));
    const last = Math.max(...[...arrivals.values()].map((a) => a.at));
    const wh = new Webhook(secret);
    let verified = 0;
    for (const s of samples) {
      const at = Number(s.headers['webhook-timestamp']) * 1000;
      const now = Date.now;
      Date.now = () => at;
      try {
        wh.verify(s.body, s.headers);
        verified++;
      } finally {
        Date.now = now;
      }
    }
    const result = {
      events: EVENTS,
      producedMs,
      signUpsPerS: EVENTS / (producedMs / 1000),
      signUpP95Ms: percentile(signUpMs, 0.95),
      deliveredPerS: EVENTS / ((last - first) / 1000),
      lagP50Ms: percentile(lags, 0.5),
      lagP95Ms: percentile(lags, 0.95),
      lagMaxMs: Math.max(...lags),
      duplicates,
      verified: `${verified}/${samples.length}`,
    };
    const report = { benchmark: 'events', started: started.toISOString(), machine: machineInfo, settings: { events: EVENTS, producers: PRODUCERS, workerConcurrency: WORKER_CONCURRENCY }, result };
    const md = [
      `# Events benchmark (${started.toISOString()})`,
      '',
      `Machine: ${machineInfo.cpus} × ${machineInfo.cpuModel}, ${machineInfo.memoryGiB} GiB, Node ${machineInfo.node}, load at start ${machineInfo.loadAverageAtStart.join(' / ')}, commit ${machineInfo.commit ?? '?'}.`,
      '',
      `${f(EVENTS)} sign-ups (\`POST /v1/users\`, ${PRODUCERS} at once), each a \`user.created\` event delivered as a signed webhook to a receiver on 127.0.0.1 by the job worker (concurrency ${WORKER_CONCURRENCY}). API, worker, Postgres and receiver share the machine.`,
      '',
      '| Events | Sign-ups/s (p95 ms) | Delivered/s (first commit → last delivery) | Lag p50 | Lag p95 | Lag max | Duplicates | Signatures verified (sample) |',
      '|---|---|---|---|---|---|---|---|',
      `| ${f(EVENTS)} | ${f(result.signUpsPerS)} (${f(result.signUpP95Ms, 1)}) | ${f(result.deliveredPerS)} | ${f(result.lagP50Ms)} ms | ${f(result.lagP95Ms)} ms | ${f(result.lagMaxMs)} ms | ${duplicates} | ${result.verified} |`,
      '',
    ].join('\n');
    writeResults('events', started.toISOString(), report, md);
    console.log(md);
  } finally {
    receiver.close();
    await stop();
  }
}

runBench('events', main, 300_000);
