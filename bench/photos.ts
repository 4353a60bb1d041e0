/**
 * Benchmark: a listing photo from upload to `ready` through the API, versus sharp alone making the
 * same three sizes from the same bytes; and how much memory a 50-megapixel upload costs the server.
 *
 *   upload-to-ready  POST /v1/me/listings/{id}/images (12 MP JPEG) → 202 → process-image job (worker,
 *                    LISTEN/NOTIFY) → sizes written to the disk store → row ready; the API and its
 *                    worker in a process of their own, the client in this one; timed from the
 *                    first byte sent to the row's updated_at (the bench looks at the row every 20 ms
 *                    to know when to stop waiting, then checks the listing through the API).
 *   sharp alone      makeDerivatives() on the same buffer: the sizes, in memory, nothing else.
 *   phases           the upload command and the job publish their phases on a diagnostics channel
 *                    (packages/domain/src/images/photo-trace.ts), which the server process forwards:
 *                    per phase the wall time, the process's CPU time, minor page faults and GC pauses,
 *                    beside the same phases of sharp alone here and of sharp alone inside the idle
 *                    server process on a fresh read of the file (is it the process, or the moment?).
 *   peak RSS         a fresh process running only the API + worker (warmed up with one 12 MP photo):
 *                    VmHWM reset via /proc/self/clear_refs, one 50 MP upload to ready, growth =
 *                    peak − RSS before.
 *
 * One run, alternating the two sides so both see the same machine. Targets (issue 4): p50 ratio
 * ≤ 1.25, RSS growth < 300 MB. Run: npm run -s bench:photos   (BENCH_PHOTO_RUNS, default 12)
 */
import { fork, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { makeDerivatives, markNow, type PhotoMark, type PhotoTraceMessage } from '@hm/domain/images';
import { machine, startApiStack, writeResults } from './lib.js';
import { peakRss, resetPeak, rssNow, serverChild, sleep } from './photos.server.js';
import { tracedDerivatives, type Gc, type TracedUpload } from './photos.phases.js';
import { photosReport } from './photos.report.js';

const RUNS = Number(process.env.BENCH_PHOTO_RUNS ?? 12);
const WARMUP = 2;
const MB = 1024 * 1024;

/** A photo-like JPEG: smooth gradient plus sensor noise, so decoding costs what a camera file costs. */
async function photo(width: number, height: number, quality: number): Promise<Buffer> {
  const gradient = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      gradient[i] = (x * 255) / width;
      gradient[i + 1] = (y * 255) / height;
      gradient[i + 2] = 128 + 100 * Math.sin((x + y) / 300);
    }
  }
  const noise = await sharp({ create: { width, height, channels: 3, background: '#000000', noise: { type: 'gaussian', mean: 128, sigma: 12 } } }).raw().toBuffer();
  for (let i = 0; i < gradient.length; i++) gradient[i] = Math.max(0, Math.min(255, gradient[i]! + noise[i]! - 128));
  return sharp(gradient, { raw: { width, height, channels: 3 } }).jpeg({ quality }).toBuffer();
}

function ask<T>(child: ChildProcess, msg: object, reply: string): Promise<T> {
  return new Promise((resolve) => {
    const on = (m: { type: string }) => {
      if (m.type !== reply) return;
      child.off('message', on);
      resolve(m as T);
    };
    child.on('message', on);
    if (Object.keys(msg).length) child.send(msg);
  });
}

async function main() {
  const started = new Date();
  const machineInfo = machine();
  // this process: Postgres, the operator, and the client; the API and its worker run in a child process
  const { dir, db, orm, apiUrl, operator, stop } = await startApiStack('photos', { poolMax: 4 });
  /** the phases the server process's upload command and job published, by image id */
  const traces = new Map<string, { upload?: PhotoMark[]; job?: PhotoMark[]; uploadGcs?: Gc[]; jobGcs?: Gc[] }>();
  /** the API and its job worker (concurrency 1) in a fresh process of their own, as a server runs them */
  const serverProcess = async () => {
    const child = fork(fileURLToPath(import.meta.url), ['--server'], {
      execArgv: process.execArgv,
      env: { ...process.env, BENCH_DATABASE_URL: db.url, BENCH_DIR: dir },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.on('message', (m: { type: string; trace?: PhotoTraceMessage; gcs?: Gc[] }) => {
      if (m.type !== 'trace') return;
      const t = m.trace!;
      traces.set(t.imageId, { ...traces.get(t.imageId), [t.side]: t.marks, [`${t.side}Gcs`]: m.gcs ?? [] });
    });
    const { apiUrl: url } = await ask<{ apiUrl: string }>(child, {}, 'ready');
    return {
      child,
      url,
      stop: async () => {
        child.send({ type: 'stop' });
        await new Promise((r) => child.once('exit', r));
      },
    };
  };

  try {
    const { keys } = await operator.marketplace.create({ name: 'Bench', slug: 'bench', currencies: ['SEK'], locales: ['en'], storefront_url: 'http://127.0.0.1:3000' });
    const auth = { authorization: `Bearer ${keys.secret}` };
    const signUp = await fetch(`${apiUrl}/v1/users`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ email: 'bench@example.com' }) });
    const session = ((await signUp.json()) as { session: { token: string } }).session.token;
    const headers = { ...auth, 'x-user-session': session };
    const newListing = async (base = apiUrl) => {
      const res = await fetch(`${base}/v1/me/listings`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ title: 'Bench' }) });
      return ((await res.json()) as { id: string }).id;
    };

    /**
     * Upload, then wait until the photo is ready; the time is from the first byte sent to the moment
     * the job marked the row ready (its updated_at, same machine clock). How the bench learns that
     * is not part of the time: it looks at the row in Postgres every 20 ms (one indexed select,
     * cheaper than a listing page through the API, which would compete with sharp for the two CPUs),
     * then checks through the API that the listing shows the photo ready.
     */
    const uploadToReady = async (bytes: Buffer, base = apiUrl) => {
      const listing = await newListing(base);
      const tFirst = markNow('sent');
      const t0 = Date.now();
      const res = await fetch(`${base}/v1/me/listings/${listing}/images`, { method: 'POST', headers: { ...headers, 'content-type': 'image/jpeg' }, body: bytes });
      if (res.status !== 202) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
      const { id } = (await res.json()) as { id: string };
      const answered = Date.now();
      for (;;) {
        await sleep(20);
        const [row] = await orm.em.getConnection().execute<{ status: string; created_at: Date; updated_at: Date }[]>('select status, created_at, updated_at from listing_images where id = ?', [id]);
        if (row?.status === 'failed') throw new Error('photo failed');
        if (row?.status === 'ready') {
          const l = (await (await fetch(`${base}/v1/me/listings/${listing}`, { headers })).json()) as { images: { id: string; status: string }[] };
          if (l.images.find((i) => i.id === id)?.status !== 'ready') throw new Error('the row is ready but the API does not show the photo ready');
          const ready = new Date(row.updated_at).getTime();
          for (let waited = 0; !traces.get(id)?.job && waited < 2000; waited += 10) await sleep(10);
          const trace = traces.get(id);
          traces.delete(id);
          // phases: request received and authenticated (the upload command's clock), 202 at the client, job done
          return { ms: ready - t0, received: new Date(row.created_at).getTime() - t0, answered: answered - t0, job: ready - answered, t0: tFirst, trace };
        }
        if (Date.now() - t0 > 60_000) throw new Error('photo not ready within 60 s');
      }
    };
    const sharpAlone = async (bytes: Buffer) => {
      const t0 = Date.now();
      await makeDerivatives(bytes);
      return Date.now() - t0;
    };
    /** the same, with its phases */
    const sharpAloneTraced = async (bytes: Buffer) => {
      const marks = await tracedDerivatives(bytes);
      return { ms: marks.at(-1)!.at - marks[0]!.at, marks };
    };

    console.error('bench:photos making test photos…');
    const twelve = await photo(4000, 3000, 90);
    const fifty = await photo(10000, 5000, 80);
    if (fifty.length > 20 * MB) throw new Error(`the 50 MP test photo is ${fifty.length} bytes, over the upload limit`);
    (globalThis as { gc?: () => void }).gc?.(); // the raw pixels used to make them are garbage now

    console.error(`bench:photos ${WARMUP} warm-up + ${RUNS} measured runs each, alternating…`);
    const server = await serverProcess();
    const twelveFile = path.join(dir, 'twelve.jpg');
    writeFileSync(twelveFile, twelve);
    const api: number[] = [];
    const apiFromStore: number[] = [];
    const alone: number[] = [];
    const phases: { received: number[]; answered: number[]; job: number[] } = { received: [], answered: [], job: [] };
    const traced: { api: TracedUpload[]; apiFromStore: TracedUpload[]; alone: PhotoMark[][]; aloneInServer: PhotoMark[][] } = { api: [], apiFromStore: [], alone: [], aloneInServer: [] };
    const tracedUpload = (u: Awaited<ReturnType<typeof uploadToReady>>): TracedUpload | undefined =>
      u.trace?.upload && u.trace.job ? { t0: u.t0, upload: u.trace.upload, job: u.trace.job, gcs: [...(u.trace.uploadGcs ?? []), ...(u.trace.jobGcs ?? [])] } : undefined;
    for (let i = 0; i < WARMUP + RUNS; i++) {
      const a = await sharpAloneTraced(twelve);
      // the same upload with the job working from the stored original (no sizes started by the upload), in alternating order
      const early = async (on: boolean) => ask(server.child, { type: 'early', on }, 'early-set');
      let b: Awaited<ReturnType<typeof uploadToReady>>;
      let fromStore: Awaited<ReturnType<typeof uploadToReady>>;
      if (i % 2 === 0) {
        b = await uploadToReady(twelve, server.url);
        await early(false);
        fromStore = await uploadToReady(twelve, server.url);
        await early(true);
      } else {
        await early(false);
        fromStore = await uploadToReady(twelve, server.url);
        await early(true);
        b = await uploadToReady(twelve, server.url);
      }
      // sharp alone inside the (idle) server process, on a fresh read of the same bytes: is the job's process or its moment slower?
      const c = await ask<{ marks: PhotoMark[] }>(server.child, { type: 'alone', file: twelveFile }, 'alone-done');
      if (i >= WARMUP) {
        alone.push(a.ms);
        api.push(b.ms);
        apiFromStore.push(fromStore.ms);
        phases.received.push(b.received);
        phases.answered.push(b.answered);
        phases.job.push(b.job);
        traced.alone.push(a.marks);
        traced.aloneInServer.push(c.marks);
        const [tb, ts] = [tracedUpload(b), tracedUpload(fromStore)];
        if (tb) traced.api.push(tb);
        if (ts) traced.apiFromStore.push(ts);
      }
    }
    await server.stop();

    console.error('bench:photos 50 MP upload into a fresh API process, peak memory…');
    const fresh = await serverProcess();
    const { child, url: childUrl } = fresh;
    await uploadToReady(twelve, childUrl); // warm-up: sharp, libvips and the pools loaded as in a server that has worked
    const { rss: rssBefore } = await ask<{ rss: number }>(child, { type: 'measure-start' }, 'started');
    const fiftyMs = (await uploadToReady(fifty, childUrl)).ms;
    const { peak: apiPeak } = await ask<{ peak: number }>(child, { type: 'measure-end' }, 'ended');
    await fresh.stop();
    const peakSupported = Number.isFinite(apiPeak);
    (globalThis as { gc?: () => void }).gc?.();
    await sleep(200);
    const rssBeforeAlone = rssNow();
    resetPeak();
    const fiftyAloneMs = await sharpAlone(fifty);
    const alonePeak = peakRss();

    const { report, md } = photosReport({ started, machineInfo, runs: RUNS, warmup: WARMUP, twelve, fifty, api, apiFromStore, alone, phases, traced, fiftyMs, rssBefore, apiPeak, peakSupported, fiftyAloneMs, alonePeak, rssBeforeAlone });
    writeResults('photos', report.date, report, md);
    process.stdout.write(md);
  } finally {
    await stop();
  }
}

if (process.argv.includes('--server')) await serverChild();
else await main();
