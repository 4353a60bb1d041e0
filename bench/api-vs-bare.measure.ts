/**
 * api-vs-bare's load generation: autocannon against one target, and one measured slice of it (its
 * requests, latencies, and the CPU of its server, Postgres, this process and the rest of the machine).
 */
import autocannon from 'autocannon';
import { machineCpuSeconds, postgresCpuSeconds } from './lib.js';
import { CONFIG } from './api-vs-bare.config.js';
import type { Server } from './api-vs-bare.processes.js';
import type { Measured, Slice } from './api-vs-bare.report.js';

export interface Target extends Measured {
  server: Server;
  url: string;
}

export function load(url: string, headers: Record<string, string>, seconds: number, onLatency?: (ms: number) => void) {
  return new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ url, headers, connections: CONFIG.connections, pipelining: CONFIG.pipelining, duration: seconds }, (err, result) =>
      err ? reject(err) : resolve(result),
    );
    // autocannon's own histogram stores whole milliseconds; keep the exact times for sub-ms percentiles.
    if (onLatency) instance.on('response', (_client, _status, _bytes, responseTime) => onLatency(responseTime));
  });
}

export async function measureSlice(t: Target, headers: Record<string, string>, postmasterPid: number, expect304 = false) {
  await load(t.url, headers, CONFIG.settleSeconds);
  const cpu0 = await t.server.cpu();
  const pg0 = postgresCpuSeconds(postmasterPid);
  const own0 = process.cpuUsage();
  const machine0 = machineCpuSeconds();
  const r = await load(t.url, headers, CONFIG.sliceSeconds, (ms) => t.latenciesMs.push(ms));
  const machine1 = machineCpuSeconds();
  const own = process.cpuUsage(own0);
  const pg1 = postgresCpuSeconds(postmasterPid);
  const cpu1 = await t.server.cpu();
  const serverCpuSeconds = (cpu1.user + cpu1.system - cpu0.user - cpu0.system) / 1e6;
  const loadGeneratorCpuSeconds = (own.user + own.system) / 1e6;
  const slice: Slice = {
    seconds: r.duration,
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    rps: r.requests.total / r.duration,
    rpsSampleMean: r.requests.mean,
    rpsSampleStddev: r.requests.stddev,
    serverCpuSeconds,
    postgresCpuSeconds: pg1 - pg0,
    loadGeneratorCpuSeconds,
    otherCpuSeconds: machine1.busy - machine0.busy - serverCpuSeconds - (pg1 - pg0) - loadGeneratorCpuSeconds,
    stealCpuSeconds: machine1.steal - machine0.steal,
  };
  t.slices.push(slice);
  if (expect304) {
    // every answer a 304: autocannon counts them as non-2xx
    if (r['2xx'] || r['3xx'] !== r.requests.total || slice.errors || slice.timeouts) throw new Error(`${t.route}/304: ${r['2xx']} × 2xx, ${r['3xx']} × 3xx of ${r.requests.total}, ${slice.errors} errors, ${slice.timeouts} timeouts in a slice`);
  } else if (slice.non2xx || slice.errors || slice.timeouts) {
    throw new Error(`${t.route}/${t.role}: ${slice.non2xx} non-2xx, ${slice.errors} errors, ${slice.timeouts} timeouts in a slice`);
  }
  console.error(`  ${t.route.padEnd(11)} ${(expect304 ? '304' : t.role).padEnd(4)} ${slice.rps.toFixed(0).padStart(7)} req/s`);
}
