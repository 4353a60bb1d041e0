/**
 * Benchmark: a burst of wrong-password sign-ins against other traffic (issue 24).
 *
 *   idle   other traffic alone: 4 clients in a loop of GET /v1/me and GET /v1/listings over HTTP to
 *          the real server (API + worker in this process), 200 requests; p50/p95.
 *   burst  the same traffic while 200 POST /v1/sessions with wrong passwords (200 addresses) arrive
 *          at once; p50/p95 of the other traffic during the burst, and every answer's status.
 *   Target: other traffic's p95 within 2× of idle, 0 × 503 (sign-ins and others).
 *
 * Run: npm run -s bench:signin-burst   (BENCH_BURST, default 200)
 */
import { f, machine, percentile, runBench, startApiStack, writeResults } from './lib.js';

const BURST = Number(process.env.BENCH_BURST ?? 200);
const CLIENTS = 4;
const IDLE_REQUESTS = 200;

async function main() {
  const started = new Date();
  const machineInfo = machine();
  const { apiUrl, operator, stop } = await startApiStack('signin-burst');
  try {
    const { keys } = await operator.marketplace.create({ name: 'Bench', slug: 'bench', currencies: ['SEK'], locales: ['en'], storefront_url: 'http://127.0.0.1:3000' });
    const call = async (method: string, url: string, session: string | undefined, body?: object) => {
      const t0 = performance.now();
      const res = await fetch(`${apiUrl}/v1${url}`, {
        method,
        headers: { authorization: `Bearer ${keys.secret}`, ...(session ? { 'x-user-session': session } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      await res.arrayBuffer();
      return { status: res.status, ms: performance.now() - t0 };
    };
    const session = ((await (await fetch(`${apiUrl}/v1/users`, { method: 'POST', headers: { authorization: `Bearer ${keys.secret}`, 'content-type': 'application/json' }, body: JSON.stringify({ email: 'reader@example.com', password: 'a good password' }) })).json()) as { session: { token: string } }).session.token;

    /** the other traffic: CLIENTS loops until `until()` (or `count` requests in all) */
    const traffic = async (until: () => boolean, count = Infinity) => {
      const out: { status: number; ms: number }[] = [];
      await Promise.all(
        Array.from({ length: CLIENTS }, async (_, c) => {
          for (let i = 0; !until() && out.length < count; i++) out.push(await call('GET', (i + c) % 2 ? '/me' : '/listings', session));
        }),
      );
      return out;
    };
    console.error('bench:signin-burst warm-up and idle traffic…');
    await traffic(() => false, 40);
    const idle = await traffic(() => false, IDLE_REQUESTS);

    console.error(`bench:signin-burst ${BURST} wrong-password sign-ins at once, with the same traffic…`);
    let done = false;
    const t0 = performance.now();
    const burstP = Promise.all(Array.from({ length: BURST }, (_, i) => call('POST', '/sessions', undefined, { email: `guess${i}@example.com`, password: 'wrong password' }))).finally(() => (done = true));
    const [burst, during] = await Promise.all([burstP, traffic(() => done)]);
    const burstMs = performance.now() - t0;

    const p = (xs: { ms: number }[], q: number) => percentile(xs.map((x) => x.ms), q);
    const statuses = (xs: { status: number }[]) => xs.reduce<Record<number, number>>((acc, r) => ({ ...acc, [r.status]: (acc[r.status] ?? 0) + 1 }), {});
    const unavailable = [...burst, ...during].filter((r) => r.status === 503).length;
    const ratio = p(during, 0.95) / p(idle, 0.95);
    const report = {
      started: started.toISOString(),
      machine: machineInfo,
      burst: { size: BURST, ms: burstMs, statuses: statuses(burst), p50: p(burst, 0.5), p95: p(burst, 0.95) },
      idle: { requests: idle.length, statuses: statuses(idle), p50: p(idle, 0.5), p95: p(idle, 0.95) },
      during: { requests: during.length, statuses: statuses(during), p50: p(during, 0.5), p95: p(during, 0.95) },
      p95Ratio: ratio,
      unavailable,
      target: { p95WithinTwiceIdle: ratio <= 2, no503: unavailable === 0 },
    };
    const md = [
      `# signin-burst (${started.toISOString()})`,
      '',
      `Machine: ${machineInfo.cpus} × ${machineInfo.cpuModel}, ${machineInfo.memoryGiB} GiB.`,
      '',
      '| Traffic | Requests | Statuses | p50 (ms) | p95 (ms) |',
      '|---|---|---|---|---|',
      `| other traffic, idle | ${idle.length} | ${JSON.stringify(statuses(idle))} | ${f(p(idle, 0.5), 1)} | ${f(p(idle, 0.95), 1)} |`,
      `| other traffic, during the burst | ${during.length} | ${JSON.stringify(statuses(during))} | ${f(p(during, 0.5), 1)} | ${f(p(during, 0.95), 1)} |`,
      `| ${BURST} wrong-password sign-ins at once (${f(burstMs / 1000, 1)} s in all) | ${burst.length} | ${JSON.stringify(statuses(burst))} | ${f(p(burst, 0.5), 1)} | ${f(p(burst, 0.95), 1)} |`,
      '',
      `Other traffic's p95 during the burst: ${f(ratio, 2)}× idle (target ≤ 2×: ${ratio <= 2 ? 'met' : 'missed'}); 503 answers: ${unavailable} (target 0: ${unavailable === 0 ? 'met' : 'missed'}).`,
      '',
    ].join('\n');
    writeResults('signin-burst', started.toISOString(), report, md);
    console.log(md);
  } finally {
    await stop();
  }
}

runBench('signin-burst', main);
