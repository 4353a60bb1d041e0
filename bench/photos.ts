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
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { allowEarlyDerivatives, makeDerivatives, markNow, photoTrace, type PhotoMark, type PhotoTraceMessage } from '@hm/domain/images';
import { f, machine, percentile, startApi, startApiStack, writeResults } from './lib.js';

const RUNS = Number(process.env.BENCH_PHOTO_RUNS ?? 12);
const WARMUP = 2;
const MB = 1024 * 1024;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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

function rssNow(): number {
  return process.memoryUsage.rss();
}

/** Peak resident set since the last reset (Linux: VmHWM; reset by writing 5 to clear_refs). */
function resetPeak(): boolean {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}
function peakRss(): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return m ? Number(m[1]) * 1024 : NaN;
}

/**
 * `--server`: the API and its worker alone in a fresh process, as a server runs them: the uploads are
 * timed against one (the client's event loop is not the server's), and a second, fresh one (nothing
 * else allocated there) is used for the 50 MP memory measurement. Talks to the parent over IPC.
 */
async function serverChild() {
  // as `npm start` runs it: the API key cache on (1 s), the worker beside the API
  // sizes started by the upload on (as `npm start` runs), switched off and on by the parent to compare
  const { apiUrl, stop } = await startApi(process.env.BENCH_DATABASE_URL!, process.env.BENCH_DIR!, { poolMax: 4, apiKeyCacheMs: 1000, worker: { concurrency: 1, earlySizes: false } });
  let disallowEarly: (() => void) | undefined = allowEarlyDerivatives();
  // the upload command's and the job's phases, to the parent
  // and the garbage collector's pauses in this process (main thread) within a trace's span
  const gcs: Gc[] = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gcs.push({ start: performance.timeOrigin + e.startTime, end: performance.timeOrigin + e.startTime + e.duration });
    if (gcs.length > 1000) gcs.splice(0, 500);
  }).observe({ entryTypes: ['gc'] });
  photoTrace.subscribe((m) => {
    const { marks } = m as PhotoTraceMessage;
    const from = marks[0]!.at;
    const to = marks.at(-1)!.at;
    process.send!({ type: 'trace', trace: m, gcs: gcs.filter((g) => g.end > from && g.start < to) });
  });
  process.on('message', async (msg: { type: string; file?: string }) => {
    if (msg.type === 'early') {
      disallowEarly?.();
      disallowEarly = (msg as { on?: boolean }).on ? allowEarlyDerivatives() : undefined;
      process.send!({ type: 'early-set' });
    } else if (msg.type === 'alone') {
      // sharp alone inside the server process (idle between uploads), on bytes read from a file as the job reads them
      const bytes = readFileSync(msg.file!);
      const marks = await tracedDerivatives(bytes);
      process.send!({ type: 'alone-done', marks });
    } else if (msg.type === 'measure-start') {
      (globalThis as { gc?: () => void }).gc?.();
      await sleep(200);
      const rss = rssNow();
      resetPeak();
      process.send!({ type: 'started', rss });
    } else if (msg.type === 'measure-end') {
      process.send!({ type: 'ended', peak: peakRss() });
    } else if (msg.type === 'stop') {
      await stop();
      process.exit(0);
    }
  });
  process.send!({ type: 'ready', apiUrl });
}

/** `makeDerivatives` with the job's phase marks (metadata, decoded, encoded:<size>), the first mark `start` */
async function tracedDerivatives(bytes: Buffer): Promise<PhotoMark[]> {
  const marks = [markNow('start')];
  await makeDerivatives(bytes, { mark: (name) => marks.push(markNow(name)) });
  return marks;
}

type Marks = PhotoMark[];
type Gc = { start: number; end: number };
const at = (marks: Marks, name: string) => {
  const m = marks.find((x) => x.name === name);
  if (!m) throw new Error(`no ${name} mark in ${marks.map((x) => x.name).join(', ')}`);
  return m;
};
const lastOf = (marks: Marks, prefix: string) => marks.filter((x) => x.name.startsWith(prefix)).reduce((a, b) => (b.at > a.at ? b : a));
/** wall ms, process CPU ms, minor page faults and ms of GC pauses (where known) from one mark to another */
const span = (a: PhotoMark, b: PhotoMark, gcs: Gc[] = []) => ({
  ms: b.at - a.at,
  cpuMs: b.cpuMs - a.cpuMs,
  faults: b.minorFaults - a.minorFaults,
  gcMs: gcs.reduce((sum, g) => sum + Math.max(0, Math.min(g.end, b.at) - Math.max(g.start, a.at)), 0),
});
const none = { ms: NaN, cpuMs: NaN, faults: NaN, gcMs: NaN };
/** the same between marks of two processes: wall time only */
const wall = (a: PhotoMark, b: PhotoMark) => ({ ms: b.at - a.at, cpuMs: NaN, faults: NaN, gcMs: NaN });

/** The derivative phases (same names on every side), from the mark the pipeline starts at. */
function pipelinePhases(marks: Marks, from: PhotoMark, gcs: Gc[] = []) {
  const decoded = at(marks, 'decoded');
  return {
    metadata: span(from, at(marks, 'metadata'), gcs),
    decode: span(at(marks, 'metadata'), decoded, gcs),
    'encode thumb': span(decoded, at(marks, 'encoded:thumb'), gcs),
    'encode medium': span(decoded, at(marks, 'encoded:medium'), gcs),
    'encode large': span(decoded, at(marks, 'encoded:large'), gcs),
    'pipeline (metadata → last size encoded)': span(from, lastOf(marks, 'encoded:'), gcs),
  };
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
    type TracedUpload = { t0: PhotoMark; upload: PhotoMark[]; job: PhotoMark[]; gcs: Gc[] };
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

    type Span = ReturnType<typeof span>;
    const phaseP50 = (runs: Record<string, Span>[]) =>
      Object.fromEntries(
        Object.keys(runs[0] ?? {}).map((k) => {
          const p50 = (key: keyof Span) => percentile(runs.map((r) => r[k]![key]).filter((x) => !Number.isNaN(x)), 0.5);
          return [k, { ms: p50('ms'), cpuMs: p50('cpuMs'), faults: p50('faults'), gcMs: p50('gcMs'), runsMs: runs.map((r) => Number(r[k]!.ms.toFixed(1))) }];
        }),
      );
    const apiPhasesOf = (runs: typeof traced.api) => phaseP50(
      runs.map(({ t0, upload, job, gcs }) => ({
        'first byte → upload command': wall(t0, at(upload, 'command')),
        'body received': span(at(upload, 'command'), at(upload, 'received'), gcs),
        'whole-file checks': span(at(upload, 'received'), at(upload, 'checked'), gcs),
        'transaction (original stored, committed)': span(at(upload, 'checked'), at(upload, 'committed'), gcs),
        'commit → job started': span(at(upload, 'committed'), at(job, 'start'), gcs),
        'row read': span(at(job, 'start'), at(job, 'row'), gcs),
        // with the sizes started by the upload (early-derivatives.ts) there is no read back, and the pipeline starts before the job
        'original read back': job.some((m) => m.name === 'read') ? span(at(job, 'row'), at(job, 'read'), gcs) : none,
        ...pipelinePhases(job, job.find((m) => m.name === 'early') ?? at(job, 'read'), gcs),
        'job started → sizes decoded': span(at(job, 'start'), at(job, 'decoded'), gcs),
        'last size stored': span(lastOf(job, 'encoded:'), lastOf(job, 'stored:'), gcs),
        'row marked ready': span(lastOf(job, 'stored:'), at(job, 'marked'), gcs),
        'job (started → marked)': span(at(job, 'start'), at(job, 'marked'), gcs),
        'first byte → marked': wall(t0, at(job, 'marked')),
        'sizes started early (1 = yes)': { ms: job.some((m) => m.name === 'early') ? 1 : 0, cpuMs: NaN, faults: NaN, gcMs: NaN },
      })),
    );
    const apiPhases = apiPhasesOf(traced.api);
    const apiFromStorePhases = apiPhasesOf(traced.apiFromStore);
    const alonePhases = phaseP50(traced.alone.map((m) => pipelinePhases(m, at(m, 'start'))));
    const aloneInServerPhases = phaseP50(traced.aloneInServer.map((m) => pipelinePhases(m, at(m, 'start'))));
    const summary = (xs: number[]) => ({ p50: percentile(xs, 0.5), p95: percentile(xs, 0.95), mean: xs.reduce((s, x) => s + x, 0) / xs.length, runs: xs.map((x) => Number(x.toFixed(1))) });
    const report = {
      date: started.toISOString(),
      machine: machineInfo,
      photos: { twelveMegapixel: { width: 4000, height: 3000, bytes: twelve.length }, fiftyMegapixel: { width: 10000, height: 5000, bytes: fifty.length } },
      uploadToReadyMs: summary(api),
      /** the same uploads with the job reading the original back and decoding it (sizes not started by the upload), alternating with the others */
      uploadToReadyFromStoreMs: summary(apiFromStore),
      ratioFromStoreP50: percentile(apiFromStore, 0.5) / percentile(alone, 0.5),
      sharpAloneMs: summary(alone),
      ratioP50: percentile(api, 0.5) / percentile(alone, 0.5),
      ratioMean: api.reduce((s, x) => s + x, 0) / alone.reduce((s, x) => s + x, 0),
      /** p50 ms from the first byte sent: the upload command started (body received, key and session checked), the 202 at the client; and from the 202 to ready (job hand-off, sizes, row) */
      /** p50 of each phase (wall ms, CPU ms of the whole process, minor page faults): the API's upload and job, sharp alone here, and sharp alone inside the idle server process on a fresh read of the file */
      tracedPhasesP50: { api: apiPhases, apiFromStore: apiFromStorePhases, sharpAlone: alonePhases, sharpAloneInServerProcess: aloneInServerPhases, runs: traced.api.length },
      phasesP50: { received: percentile(phases.received, 0.5), answered: percentile(phases.answered, 0.5), answeredToReady: percentile(phases.job, 0.5) },
      fiftyMegapixel: {
        uploadToReadyMs: fiftyMs,
        rssBeforeMB: rssBefore / MB,
        peakRssMB: apiPeak / MB,
        growthMB: (apiPeak - rssBefore) / MB,
        sharpAloneMs: fiftyAloneMs,
        sharpAloneGrowthMB: (alonePeak - rssBeforeAlone) / MB,
        measuredWith: peakSupported ? 'VmHWM after clear_refs' : 'unavailable',
      },
      targets: { ratioP50: 1.25, growthMB: 300 },
    };
    const met = report.ratioP50 <= 1.25 && report.fiftyMegapixel.growthMB < 300;
    const m = report.machine;
    const md = [
      `# photos — ${report.date}`,
      '',
      `Upload-to-ready through the API (the API and its graphile-worker runner in a process of their own; HTTP upload from this process, sizes to the disk store, ready = when the job marked the row ready) vs \`makeDerivatives\` (sharp) alone on the same bytes. ${RUNS} runs each after ${WARMUP} warm-ups, alternating.`,
      '',
      `Machine: ${m.cpus} CPU (${m.cpuModel}), ${m.memoryGiB} GiB, ${m.platform}, Node ${m.node}, load average at start ${m.loadAverageAtStart.join(' / ')}${m.commit ? `, commit ${m.commit}` : ''}.`,
      '',
      `| 12 MP JPEG (${f(twelve.length / MB, 1)} MB) | p50 ms | p95 ms | mean ms |`,
      '|---|--:|--:|--:|',
      `| API upload → ready | ${f(report.uploadToReadyMs.p50)} | ${f(report.uploadToReadyMs.p95)} | ${f(report.uploadToReadyMs.mean)} |`,
      `| API upload → ready, the job from the stored original (sizes not started by the upload) | ${f(report.uploadToReadyFromStoreMs.p50)} | ${f(report.uploadToReadyFromStoreMs.p95)} | ${f(report.uploadToReadyFromStoreMs.mean)} |`,
      `| sharp alone, three sizes | ${f(report.sharpAloneMs.p50)} | ${f(report.sharpAloneMs.p95)} | ${f(report.sharpAloneMs.mean)} |`,
      '',
      `**Ratio API/sharp p50: ${f(report.ratioP50, 2)}** (mean ${f(report.ratioMean, 2)}; target ≤ 1.25; with the job from the stored original: ${f(report.ratioFromStoreP50, 2)}).`,
      '',
      `Where the API's time goes (p50 ms from the first byte sent): upload command started (body received, key and session checked) ${f(report.phasesP50.received)}; 202 at the client (the row, the job and the stored original committed) ${f(report.phasesP50.answered)}; from the 202 to ready (job hand-off, original read back, the sizes made and stored, row marked) ${f(report.phasesP50.answeredToReady)}. sharp alone: ${f(report.sharpAloneMs.p50)}.`,
      '',
      `Phases (p50 over ${traced.api.length} runs; wall ms / CPU ms of the whole process / minor page faults / ms of the server's GC pauses). The pipeline's phases are the same code on every side (\`startDerivatives\`): "sharp alone" is this process on the same buffer, "in server" is the idle server process on a fresh read of the file.`,
      '',
      '| phase | API (upload, job) | API, job from the stored original | sharp alone | sharp alone in server |',
      '|---|--:|--:|--:|--:|',
      ...Object.entries(apiPhases).map(([k, v]) => {
        const n = (x: number, d = 0) => (Number.isNaN(x) ? '–' : f(x, d));
        const cell = (x?: { ms: number; cpuMs: number; faults: number; gcMs: number }, gc = true) => (x ? `${n(x.ms, 1)} / ${n(x.cpuMs, 1)} / ${n(x.faults)}${gc ? ` / ${n(x.gcMs, 1)}` : ''}` : '');
        return `| ${k} | ${cell(v)} | ${cell(apiFromStorePhases[k])} | ${cell(alonePhases[k], false)} | ${cell(aloneInServerPhases[k], false)} |`;
      }),
      '',
      `50 MP JPEG (${f(fifty.length / MB, 1)} MB): upload → ready ${f(fiftyMs)} ms; **peak RSS growth of the API process ${f(report.fiftyMegapixel.growthMB)} MB** (from ${f(report.fiftyMegapixel.rssBeforeMB)} to ${f(report.fiftyMegapixel.peakRssMB)} MB; target < 300 MB). sharp alone on the same bytes (in the benchmark process): ${f(fiftyAloneMs)} ms, +${f(report.fiftyMegapixel.sharpAloneGrowthMB)} MB.`,
      '',
      met ? 'Both targets met.' : '> Warning: a target was missed; see the numbers above.',
      '',
    ].join('\n');
    writeResults('photos', report.date, report, md);
    process.stdout.write(md);
  } finally {
    await stop();
  }
}

if (process.argv.includes('--server')) await serverChild();
else await main();
