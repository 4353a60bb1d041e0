import { channel } from 'node:diagnostics_channel';
import { performance } from 'node:perf_hooks';

/**
 * Where a photo's time goes: the upload command, the `process-image` job and `makeDerivatives`
 * publish their phases on this channel (`bench:photos` listens). Nothing is measured while no one
 * subscribes: the tracer is then a no-op.
 */
export const photoTrace = channel('hm.photo-trace');

export interface PhotoMark {
  name: string;
  /** wall clock, ms (fractional; comparable between processes on one machine) */
  at: number;
  /** CPU time of the whole process so far (every thread), ms */
  cpuMs: number;
  /** minor page faults of the process so far */
  minorFaults: number;
}

export interface PhotoTraceMessage {
  imageId: string;
  side: 'upload' | 'job';
  marks: PhotoMark[];
}

export interface PhotoTracer {
  mark(name: string): void;
  /** marks taken elsewhere for this photo (the sizes started by its upload), read when published */
  add(marks: PhotoMark[]): void;
  publish(imageId: string): void;
}

const off: PhotoTracer = { mark() {}, add() {}, publish() {} };

/** Marks taken now, published together by `publish` (a no-op tracer when no one listens). */
export function photoTracer(side: PhotoTraceMessage['side']): PhotoTracer {
  if (!photoTrace.hasSubscribers) return off;
  const marks: PhotoMark[] = [];
  const elsewhere: PhotoMark[][] = [];
  return {
    mark: (name) => marks.push(markNow(name)),
    add: (more) => elsewhere.push(more),
    publish: (imageId) => photoTrace.publish({ imageId, side, marks: marks.concat(...elsewhere).sort((a, b) => a.at - b.at) } satisfies PhotoTraceMessage),
  };
}

export function markNow(name: string): PhotoMark {
  const cpu = process.cpuUsage();
  return { name, at: performance.timeOrigin + performance.now(), cpuMs: (cpu.user + cpu.system) / 1000, minorFaults: process.resourceUsage().minorPageFault };
}
