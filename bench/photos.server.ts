/**
 * bench:photos' server process (`photos.ts --server`): the API and its worker alone in a fresh
 * process, forwarding the photo phases, and the memory measurement (peak RSS via /proc).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { allowEarlyDerivatives, photoTrace, type PhotoTraceMessage } from '@hm/domain/images';
import { startApi } from './lib.js';
import { tracedDerivatives, type Gc } from './photos.phases.js';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function rssNow(): number {
  return process.memoryUsage.rss();
}

/** Peak resident set since the last reset (Linux: VmHWM; reset by writing 5 to clear_refs). */
export function resetPeak(): boolean {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}
export function peakRss(): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return m ? Number(m[1]) * 1024 : NaN;
}

/**
 * `--server`: the API and its worker alone in a fresh process, as a server runs them: the uploads are
 * timed against one (the client's event loop is not the server's), and a second, fresh one (nothing
 * else allocated there) is used for the 50 MP memory measurement. Talks to the parent over IPC.
 */
export async function serverChild() {
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
