/**
 * bench:photos' report: the run's figures (p50s, ratios, phases, the 50 MP memory) and their markdown.
 */
import { f, machine, percentile } from './lib.js';
import { apiPhasesOf, at, phaseP50, pipelinePhases, type TracedUpload } from './photos.phases.js';
import type { PhotoMark } from '@hm/domain/images';

const MB = 1024 * 1024;

/** What a run measured (photos.ts). */
export interface PhotosRun {
  started: Date;
  machineInfo: ReturnType<typeof machine>;
  runs: number;
  warmup: number;
  twelve: Buffer;
  fifty: Buffer;
  api: number[];
  apiFromStore: number[];
  alone: number[];
  phases: { received: number[]; answered: number[]; job: number[] };
  traced: { api: TracedUpload[]; apiFromStore: TracedUpload[]; alone: PhotoMark[][]; aloneInServer: PhotoMark[][] };
  fiftyMs: number;
  rssBefore: number;
  apiPeak: number;
  peakSupported: boolean;
  fiftyAloneMs: number;
  alonePeak: number;
  rssBeforeAlone: number;
}

/** The report (JSON) and its markdown. */
export function photosReport(run: PhotosRun) {
  const { started, machineInfo, runs: RUNS, warmup: WARMUP, twelve, fifty, api, apiFromStore, alone, phases, traced, fiftyMs, rssBefore, apiPeak, peakSupported, fiftyAloneMs, alonePeak, rssBeforeAlone } = run;
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
    return { report, md };
}
