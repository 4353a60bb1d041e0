import { startDerivatives, type DerivativesInProgress } from './derivatives.js';
import { markNow, photoTrace, type PhotoMark } from './photo-trace.js';

/**
 * A photo's sizes started by the upload itself, in the API process, as soon as its last byte is in and
 * the whole file passed its checks — while the upload's transaction runs (listing locked, photos
 * counted, row and job added) and commits, the 202 goes out and the `process-image` job is handed
 * over — for that job to take when it runs in this same process (`npm start`: the worker beside the
 * API). The job then neither waits for its hand-off nor reads the original back before decoding: the
 * decode (most of a photo's time) overlaps all of that. An upload its transaction refuses (not the
 * seller's listing, not editable, 20 photos) drops them.
 *
 * Only while a worker runs in this process (`allowEarlyDerivatives`, called by the worker), and at
 * most `EARLY_MAX` photos at a time (counted until their sizes settle, taken or not): a seller's burst
 * of uploads starts two early and the rest wait for their jobs as before, so the API process never
 * decodes more at once than that. An entry its job does not take within `EARLY_KEEP_MS` (the job ran
 * in another worker process, or waits behind a long queue) is dropped; the job then works from the
 * stored original, which stays the source of truth (a job that dies or retries always has it).
 */
export const EARLY_MAX = 2;
export const EARLY_KEEP_MS = 30_000;

interface Early {
  derivatives: Promise<DerivativesInProgress>;
  /** the phases it went through (only while photo-trace.ts has a subscriber) */
  marks: PhotoMark[];
  timer: NodeJS.Timeout;
}

const started = new Map<string, Early>();
let workers = 0;
let inFlight = 0;

/** A worker runs in this process from now on (until the returned function is called). */
export function allowEarlyDerivatives(): () => void {
  workers += 1;
  let allowed = true;
  return () => {
    if (!allowed) return;
    allowed = false;
    workers -= 1;
    if (workers === 0) for (const id of [...started.keys()]) dropEarly(id);
  };
}

/** Starts the photo's sizes now when a worker here will take them and fewer than EARLY_MAX are being made; says whether it did. */
export function startEarly(imageId: string, original: Buffer): boolean {
  if (workers === 0 || inFlight >= EARLY_MAX || started.has(imageId)) return false;
  inFlight += 1;
  const marks: PhotoMark[] = [];
  const traced = photoTrace.hasSubscribers;
  if (traced) marks.push(markNow('early'));
  const derivatives = startDerivatives(original, traced ? { mark: (name) => marks.push(markNow(name)) } : {});
  // counted until every size settled; a failure is the job's to report (or nobody's, if dropped)
  void derivatives
    .then((d) => Promise.allSettled(Object.values(d.sizes)))
    .catch(() => {})
    .finally(() => (inFlight -= 1));
  const timer = setTimeout(() => dropEarly(imageId), EARLY_KEEP_MS);
  timer.unref();
  started.set(imageId, { derivatives, marks, timer });
  return true;
}

/** The job's side: the sizes started early for this photo, if any (taken once). */
export function takeEarly(imageId: string): { derivatives: Promise<DerivativesInProgress>; marks: PhotoMark[] } | undefined {
  const early = started.get(imageId);
  if (!early) return undefined;
  clearTimeout(early.timer);
  started.delete(imageId);
  return early;
}

/** How many photos' sizes started early are still being made (taken, waiting or dropped). */
export function earlyInFlight(): number {
  return inFlight;
}

/** The upload was refused after all (or no job came): the sizes are not wanted. */
export function dropEarly(imageId: string): void {
  takeEarly(imageId);
}
