/**
 * bench:photos' phases: the marks the upload command and the job publish (photo-trace.ts) and those
 * of sharp alone, as spans (wall ms, process CPU ms, minor page faults, GC pauses) and their p50s.
 */
import { makeDerivatives, markNow, type PhotoMark } from '@hm/domain/images';
import { percentile } from './lib.js';

/** `makeDerivatives` with the job's phase marks (metadata, decoded, encoded:<size>), the first mark `start` */
export async function tracedDerivatives(bytes: Buffer): Promise<PhotoMark[]> {
  const marks = [markNow('start')];
  await makeDerivatives(bytes, { mark: (name) => marks.push(markNow(name)) });
  return marks;
}

export type Marks = PhotoMark[];
export type Gc = { start: number; end: number };
export const at = (marks: Marks, name: string) => {
  const m = marks.find((x) => x.name === name);
  if (!m) throw new Error(`no ${name} mark in ${marks.map((x) => x.name).join(', ')}`);
  return m;
};
const lastOf = (marks: Marks, prefix: string) => marks.filter((x) => x.name.startsWith(prefix)).reduce((a, b) => (b.at > a.at ? b : a));
/** wall ms, process CPU ms, minor page faults and ms of GC pauses (where known) from one mark to another */
export const span = (a: PhotoMark, b: PhotoMark, gcs: Gc[] = []) => ({
  ms: b.at - a.at,
  cpuMs: b.cpuMs - a.cpuMs,
  faults: b.minorFaults - a.minorFaults,
  gcMs: gcs.reduce((sum, g) => sum + Math.max(0, Math.min(g.end, b.at) - Math.max(g.start, a.at)), 0),
});
const none = { ms: NaN, cpuMs: NaN, faults: NaN, gcMs: NaN };
/** the same between marks of two processes: wall time only */
const wall = (a: PhotoMark, b: PhotoMark) => ({ ms: b.at - a.at, cpuMs: NaN, faults: NaN, gcMs: NaN });

/** The derivative phases (same names on every side), from the mark the pipeline starts at. */
export function pipelinePhases(marks: Marks, from: PhotoMark, gcs: Gc[] = []) {
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

/** One upload's marks: sent at the client, the upload command's, the job's, and the server's GC pauses. */
export type TracedUpload = { t0: PhotoMark; upload: PhotoMark[]; job: PhotoMark[]; gcs: Gc[] };

type Span = ReturnType<typeof span>;
/** p50 of each phase over the runs (wall ms, CPU ms, minor page faults, GC ms), and each run's wall ms */
export const phaseP50 = (runs: Record<string, Span>[]) =>
  Object.fromEntries(
    Object.keys(runs[0] ?? {}).map((k) => {
      const p50 = (key: keyof Span) => percentile(runs.map((r) => r[k]![key]).filter((x) => !Number.isNaN(x)), 0.5);
      return [k, { ms: p50('ms'), cpuMs: p50('cpuMs'), faults: p50('faults'), gcMs: p50('gcMs'), runsMs: runs.map((r) => Number(r[k]!.ms.toFixed(1))) }];
    }),
  );
/** The API's phases (the upload command's and the job's marks) of traced uploads, p50 each. */
export const apiPhasesOf = (runs: TracedUpload[]) => phaseP50(
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
