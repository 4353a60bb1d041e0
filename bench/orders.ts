/**
 * Benchmark: checkout under contention, and the payment-expiry timers at volume (issue 12).
 *
 *   place-order  100 concurrent POST /v1/me/orders (100 buyers) for one listing with stock 1, and
 *                for one with stock 10, over HTTP to the real server (API + worker in this
 *                process, the local payments sandbox). Counted: 201s, 409s, oversells (orders
 *                beyond the stock, and a negative stock); latencies p50/p95 against a single
 *                uncontended place-order (one at a time, each on its own listing) in the same run,
 *                and against 100 at once each on its own listing (the same load, no shared row).
 *   expiry lag   10 000 orders waiting for payment whose windows all end at the same instant (seeded
 *                by SQL: 100 listings × 100 orders, each with its `expire-payment` job due then), run
 *                by the normal job worker (concurrency 4, as `npm start`). Lag of an order: its
 *                `state_entered_at` (set by the worker's clock when it became payment_expired) minus
 *                the due instant. Target: the last one within 10 s. The stock must all come back.
 *
 * Run: npm run -s bench:orders   (BENCH_ORDER_ROUNDS rounds per stock, default 3; BENCH_PENDING, default 10000;
 * BENCH_WORKER_CONCURRENCY, default 4)
 */
import { f, machine, percentile, runBench, startApiStack, writeResults } from './lib.js';

const ROUNDS = Number(process.env.BENCH_ORDER_ROUNDS ?? 3);
const PENDING = Number(process.env.BENCH_PENDING ?? 10_000);
/** the job worker's concurrency: 4, as `npm start` runs it */
const WORKER_CONCURRENCY = Number(process.env.BENCH_WORKER_CONCURRENCY ?? 4);
const CONCURRENT = 100;
const SINGLES = 30;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const started = new Date();
  const machineInfo = machine();
  const { orm, ports, apiUrl, operator, stop } = await startApiStack('orders', {
    worker: { concurrency: WORKER_CONCURRENCY, log: (level, message) => (level === 'error' || process.env.BENCH_LOG ? console.error(`worker ${level}: ${message}`) : undefined) },
  });
  const sql = <T extends object>(text: string, params: unknown[] = []) => orm.em.getConnection().execute<T[]>(text, params);

  try {
    const { keys, marketplace } = await operator.marketplace.create({ name: 'Bench', slug: 'bench', currencies: ['SEK'], locales: ['en'], storefront_url: 'http://127.0.0.1:3000' });
    await operator.marketplace.update({ marketplace: 'bench', settings: { listings: { min_images: 0, require_approval: false, require_category: false, required_terms: [], valuations: false } } });
    const call = async (method: string, url: string, session: string | undefined, body?: object) => {
      const t0 = performance.now();
      const res = await fetch(`${apiUrl}/v1${url}`, {
        method,
        headers: { authorization: `Bearer ${keys.secret}`, ...(session ? { 'x-user-session': session } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      const json = (await res.json()) as Record<string, unknown>;
      return { status: res.status, json, ms: performance.now() - t0 };
    };
    const signUp = async (email: string) => (await call('POST', '/users', undefined, { email })).json.session as { token: string };

    console.error('bench:orders users and listings…');
    const seller = (await signUp('seller@example.com')).token;
    const buyers: string[] = [];
    for (let i = 0; i < CONCURRENT; i++) buyers.push((await signUp(`buyer${i}@example.com`)).token);
    const listing = async (stock: number) => {
      const made = await call('POST', '/me/listings', seller, { title: 'Chair', price: { amount: 50000, currency: 'SEK' }, location: { country: 'SE' }, delivery: { pickup: true }, stock });
      const id = made.json.id as string;
      const published = await call('POST', `/me/listings/${id}/publish`, seller, {});
      if (published.status !== 200) throw new Error(`publish: ${JSON.stringify(published.json)}`);
      return id;
    };
    const place = (buyer: string, id: string) => call('POST', '/me/orders', buyer, { listing_id: id });

    console.error(`bench:orders ${SINGLES} uncontended place-orders (2 warm-up)…`);
    const single: number[] = [];
    for (let i = 0; i < SINGLES + 2; i++) {
      const id = await listing(1);
      const r = await place(buyers[i % CONCURRENT]!, id);
      if (r.status !== 201) throw new Error(`uncontended place-order answered ${r.status}: ${JSON.stringify(r.json)}`);
      if (i >= 2) single.push(r.ms);
    }

    // the same load without contention (each buyer on a listing of their own): what 100 requests at once cost 2 cores anyway
    const spread: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      console.error(`bench:orders ${CONCURRENT} concurrent place-orders on ${CONCURRENT} listings, round ${round + 1}/${ROUNDS}…`);
      const own: string[] = [];
      for (let i = 0; i < CONCURRENT; i++) own.push(await listing(1));
      const results = await Promise.all(buyers.map((b, i) => place(b, own[i]!)));
      if (results.some((r) => r.status !== 201)) throw new Error(`uncontended concurrent place-order: ${results.find((r) => r.status !== 201)!.status}`);
      spread.push(...results.map((r) => r.ms));
    }

    const contention: { stock: number; round: number; created: number; refused: number; oversold: number; stockLeft: number; ms: number[]; createdMs: number[] }[] = [];
    for (const stock of [1, 10]) {
      for (let round = 0; round < ROUNDS; round++) {
        console.error(`bench:orders stock ${stock}, round ${round + 1}/${ROUNDS}: ${CONCURRENT} concurrent place-orders…`);
        const id = await listing(stock);
        const results = await Promise.all(buyers.map((b) => place(b, id)));
        const [left] = await sql<{ stock: number }>('select stock from listings where id = ?', [id]);
        const [orders] = await sql<{ n: number }>(`select count(*)::int as n from orders where listing_id = ? and status <> 'payment_expired'`, [id]);
        const created = results.filter((r) => r.status === 201).length;
        const refused = results.filter((r) => r.status === 409).length;
        const other = results.filter((r) => r.status !== 201 && r.status !== 409).map((r) => r.status);
        if (other.length) throw new Error(`unexpected statuses: ${other.join(', ')}`);
        contention.push({
          stock,
          round,
          created,
          refused,
          oversold: Math.max(0, orders!.n - stock) + (left!.stock < 0 ? 1 : 0),
          stockLeft: left!.stock,
          ms: results.map((r) => r.ms),
          createdMs: results.filter((r) => r.status === 201).map((r) => r.ms),
        });
      }
    }

    console.error(`bench:orders seeding ${f(PENDING)} orders waiting for payment…`);
    const listings: string[] = [];
    const perListing = Math.ceil(PENDING / 100);
    for (let i = 0; i < 100; i++) listings.push(await listing(perListing));
    const buyerIds = (await sql<{ id: string }>(`select id from users where marketplace_id = ? and email like 'buyer%' order by email`, [marketplace.id])).map((u) => u.id);
    const [sellerRow] = await sql<{ id: string }>(`select id from users where marketplace_id = ? and email = 'seller@example.com'`, [marketplace.id]);
    await sql(
      `insert into orders (id, marketplace_id, listing_id, buyer_id, seller_id, status, state_entered_at, quantity, currency, total, line_items, delivery, fulfilment, history, payment_provider, payment_due_at, created_at, updated_at)
       select gen_random_uuid(), ?, (?::uuid[])[1 + (g - 1) % 100], (?::uuid[])[1 + (g - 1) % ${CONCURRENT}], ?, 'pending_payment', now(), 1, 'SEK', 50000,
              '[{"code":"item","label":"Chair","unit_price":50000,"quantity":1,"amount":50000}]', '{"method":"pickup"}', 'seller',
              '[{"transition":"request-payment","from":"(new)","to":"pending_payment","actor":"buyer","at":"2026-01-01T00:00:00.000Z"}]', 'local', now(), now(), now()
         from generate_series(1, ${PENDING}) g`,
      [marketplace.id, `{${listings.join(',')}}`, `{${buyerIds.join(',')}}`, sellerRow!.id],
    );
    await sql(`update listings set stock = stock - ? where id = any(?::uuid[])`, [perListing, `{${listings.join(',')}}`]);
    // each with its payment in the sandbox, as placing makes it: expiry then cancels real payments
    const seeded = await sql<{ id: string }>(`select id from orders where status = 'pending_payment' and listing_id = any(?::uuid[])`, [`{${listings.join(',')}}`]);
    const paymentIds: string[] = [];
    for (let i = 0; i < seeded.length; i += 50) {
      const chunk = seeded.slice(i, i + 50);
      const made = await Promise.all(chunk.map((o) => ports.payments.createPayment({ id: o.id, orderId: o.id, marketplaceId: marketplace.id, amount: 50000, currency: 'SEK' })));
      paymentIds.push(...made.map((p) => p.providerId));
    }
    await sql(`update orders set payment_id = x.p from unnest(?::uuid[], ?::text[]) as x(id, p) where orders.id = x.id`, [`{${seeded.map((o) => o.id).join(',')}}`, `{${paymentIds.join(',')}}`]);
    // every window ends at the same instant, a few seconds from now; each order has its expiry job due then
    const due = new Date(Date.now() + 4000);
    await sql(`update orders set state_entered_at = ?::timestamptz - interval '15 minutes', payment_due_at = ?, created_at = ?::timestamptz - interval '15 minutes' where status = 'pending_payment' and listing_id = any(?::uuid[])`, [
      due,
      due,
      due,
      `{${listings.join(',')}}`,
    ]);
    await sql(
      `select graphile_worker.add_job('expire-payment', json_build_object('marketplace_id', marketplace_id, 'order_id', id), job_key => 'expire-payment:' || id, run_at => ?)
         from orders where status = 'pending_payment' and listing_id = any(?::uuid[])`,
      [due, `{${listings.join(',')}}`],
    );
    console.error(`bench:orders waiting for ${f(PENDING)} expiries due at ${due.toISOString()}…`);
    const deadline = Date.now() + 180_000;
    for (;;) {
      const [row] = await sql<{ n: number }>(`select count(*)::int as n from orders where status = 'payment_expired' and listing_id = any(?::uuid[])`, [`{${listings.join(',')}}`]);
      if (row!.n >= PENDING) break;
      if (Date.now() > deadline) throw new Error(`only ${row!.n} of ${PENDING} expired after 180 s`);
      await sleep(250);
    }
    const expiredAt = Date.now();
    for (;;) {
      const [row] = await sql<{ n: number }>(`select count(*)::int as n from orders where payment_cancel_pending`);
      if (row!.n === 0) break;
      if (Date.now() > deadline) throw new Error(`${row!.n} payments still to cancel after 180 s`);
      await sleep(250);
    }
    const cancelsDoneMs = Date.now() - due.getTime();
    console.error(`bench:orders all expired ${f((expiredAt - due.getTime()) / 1000, 1)} s after due (polled), payments canceled ${f(cancelsDoneMs / 1000, 1)} s after due`);
    const lags = (
      await sql<{ lag: number }>(`select extract(epoch from state_entered_at - ?::timestamptz) * 1000 as lag from orders where status = 'payment_expired' and listing_id = any(?::uuid[])`, [due, `{${listings.join(',')}}`])
    ).map((r) => Number(r.lag));
    const [stockBack] = await sql<{ total: number }>(`select sum(stock)::int as total from listings where id = any(?::uuid[])`, [`{${listings.join(',')}}`]);
    const expiry = { orders: PENDING, due: due.toISOString(), lastMs: Math.max(...lags), p50Ms: percentile(lags, 0.5), p95Ms: percentile(lags, 0.95), stockBack: stockBack!.total, stockExpected: perListing * 100, cancelsDoneMs };

    const report = { benchmark: 'orders', started: started.toISOString(), machine: machineInfo, settings: { rounds: ROUNDS, concurrent: CONCURRENT, singles: SINGLES, pending: PENDING, workerConcurrency: WORKER_CONCURRENCY }, single, spread, contention, expiry };
    const row = (name: string, xs: number[]) => `| ${name} | ${xs.length} | ${f(percentile(xs, 0.5), 1)} | ${f(percentile(xs, 0.95), 1)} | ${f(percentile(xs, 0.5) / percentile(single, 0.5), 1)}× |`;
    const byStock = (stock: number) => contention.filter((c) => c.stock === stock);
    const md = [
      `# Orders benchmark (${started.toISOString()})`,
      '',
      `Machine: ${machineInfo.cpus} × ${machineInfo.cpuModel}, ${machineInfo.memoryGiB} GiB, Node ${machineInfo.node}, load at start ${machineInfo.loadAverageAtStart.join(' / ')}, commit ${machineInfo.commit ?? '?'}.`,
      '',
      `## Place-order: ${CONCURRENT} concurrent buyers, ${ROUNDS} rounds per stock`,
      '',
      '| Stock | 201 per round | 409 per round | Oversold | Stock left |',
      '|---|---|---|---|---|',
      ...[1, 10].map((s) => `| ${s} | ${byStock(s).map((c) => c.created).join(', ')} | ${byStock(s).map((c) => c.refused).join(', ')} | ${byStock(s).reduce((n, c) => n + c.oversold, 0)} | ${byStock(s).map((c) => c.stockLeft).join(', ')} |`),
      '',
      '| Latency (ms) | Requests | p50 | p95 | p50 vs uncontended |',
      '|---|---|---|---|---|',
      row('uncontended, one at a time', single),
      row('100 at once, each on its own listing', spread),
      row('stock 1, all 100 concurrent', byStock(1).flatMap((c) => c.ms)),
      row('stock 1, the 201', byStock(1).flatMap((c) => c.createdMs)),
      row('stock 10, all 100 concurrent', byStock(10).flatMap((c) => c.ms)),
      row('stock 10, the 201s', byStock(10).flatMap((c) => c.createdMs)),
      '',
      `## Payment expiry: ${f(PENDING)} orders due at once`,
      '',
      '| Orders | Last expired after due | p50 | p95 | Stock back | Target | Payments canceled (after due) |',
      '|---|---|---|---|---|---|---|',
      `| ${f(PENDING)} | ${f(expiry.lastMs / 1000, 2)} s | ${f(expiry.p50Ms / 1000, 2)} s | ${f(expiry.p95Ms / 1000, 2)} s | ${f(expiry.stockBack)} of ${f(expiry.stockExpected)} | all within 10 s: ${expiry.lastMs <= 10_000 ? 'met' : 'missed'} | all by ${f(cancelsDoneMs / 1000, 1)} s |`,
      '',
    ].join('\n');
    writeResults('orders', started.toISOString(), report, md);
    console.log(md);
  } finally {
    await stop();
  }
}

runBench('orders', main);
