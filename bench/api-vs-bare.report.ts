/**
 * api-vs-bare: what one measured target is made of, how its slices are summarised, and the
 * markdown table of a run (the runner is api-vs-bare.ts; the routes are api-vs-bare.routes.ts).
 */
import { f, percentileOfSorted, type machine } from './lib.js';
import { ROUTES, type Role, type RouteName } from './api-vs-bare.routes.js';

export interface Slice {
  seconds: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  rps: number;
  /** autocannon's own per-second sample mean and stddev, for spread */
  rpsSampleMean: number;
  rpsSampleStddev: number;
  serverCpuSeconds: number;
  postgresCpuSeconds: number;
  /** this process (autocannon): the load generator's share of the same CPUs */
  loadGeneratorCpuSeconds: number;
  /** machine-wide busy CPU not used by the three above: other processes, the idle server, kernel network work */
  otherCpuSeconds: number;
  /** CPU time the hypervisor gave to someone else */
  stealCpuSeconds: number;
}

/** A route × role measured over several slices. */
export interface Measured {
  route: RouteName;
  role: Role;
  latenciesMs: number[];
  slices: Slice[];
}

export function summarise(t: Measured) {
  const sorted = Float64Array.from(t.latenciesMs).sort();
  const requests = t.slices.reduce((s, x) => s + x.requests, 0);
  const seconds = t.slices.reduce((s, x) => s + x.seconds, 0);
  const serverCpu = t.slices.reduce((s, x) => s + x.serverCpuSeconds, 0);
  const pgCpu = t.slices.reduce((s, x) => s + x.postgresCpuSeconds, 0);
  const loadCpu = t.slices.reduce((s, x) => s + x.loadGeneratorCpuSeconds, 0);
  const otherCpu = t.slices.reduce((s, x) => s + x.otherCpuSeconds, 0);
  const stealCpu = t.slices.reduce((s, x) => s + x.stealCpuSeconds, 0);
  return {
    route: t.route,
    role: t.role,
    requests,
    seconds,
    rps: requests / seconds,
    rpsPerSlice: t.slices.map((s) => Math.round(s.rps)),
    latencyMs: {
      mean: t.latenciesMs.reduce((a, b) => a + b, 0) / t.latenciesMs.length,
      p50: percentileOfSorted(sorted, 0.5),
      p90: percentileOfSorted(sorted, 0.9),
      p99: percentileOfSorted(sorted, 0.99),
      max: sorted[sorted.length - 1]!,
    },
    serverCpuUsPerRequest: (serverCpu / requests) * 1e6,
    postgresCpuUsPerRequest: (pgCpu / requests) * 1e6,
    loadGeneratorCpuUsPerRequest: (loadCpu / requests) * 1e6,
    /** CPUs busy on average while measuring (server + Postgres + load generator) out of machine.cpus */
    cpusBusy: (serverCpu + pgCpu + loadCpu) / seconds,
    /** CPUs used on average by everything else (see Slice.otherCpuSeconds), and stolen by the hypervisor */
    otherCpus: otherCpu / seconds,
    stealCpus: stealCpu / seconds,
    slices: t.slices,
  };
}
export type Summary = ReturnType<typeof summarise>;

export interface RunConfig {
  connections: number;
  warmupSeconds: number;
  settleSeconds: number;
  sliceSeconds: number;
  rounds: number;
}

/** The API's 304 to If-None-Match against its full answer, one route, one run. */
export interface ConditionalRatio {
  route: RouteName;
  /** the full answer computed (read cache off) */
  fullRps: number;
  /** the full answer of a process keeping public reads (read cache on) */
  keptRps: number;
  /** the 304 of the process keeping public reads */
  notModifiedRps: number;
  fullServerCpuUs: number;
  keptServerCpuUs: number;
  notModifiedServerCpuUs: number;
  fullPostgresCpuUs: number;
  notModifiedPostgresCpuUs: number;
  /** full (computed) req/s ÷ 304 req/s: what a 304 costs as a share of a full answer, by throughput */
  costByThroughput: number;
  /** (API + Postgres CPU per 304) ÷ (the same per computed full answer) */
  costByCpu: number;
  /** (API + Postgres CPU per 304) ÷ (the same per kept full answer) */
  costOfKeptByCpu: number;
}

export function markdown(report: { date: string; machine: ReturnType<typeof machine>; config: RunConfig; warnings: string[]; targets: Summary[]; ratios: Ratio[]; conditional?: ConditionalRatio[] }) {
  const m = report.machine;
  const c = report.config;
  const lines = [
    `# api-vs-bare — ${report.date}`,
    '',
    `Full stack (\`buildApp\`) vs a bare Fastify route doing the same SQL through \`pg\` and the same domain mapping. ` +
      `${c.connections} connections, ${c.warmupSeconds} s warm-up per target, then ${c.rounds} × ${c.sliceSeconds} s measured per target, alternating API/bare (each slice after ${c.settleSeconds} s of unmeasured load).`,
    '',
    `Machine: ${m.cpus} CPU (${m.cpuModel}), ${m.memoryGiB} GiB, ${m.platform}, Node ${m.node}, load average at start ${m.loadAverageAtStart.join(' / ')}${m.commit ? `, commit ${m.commit}` : ''}. ` +
      'Load generator, both servers and Postgres share these CPUs.',
    '',
    `| Target | req/s | p50 ms | p99 ms | server CPU µs/req | Postgres CPU µs/req | CPUs busy (of ${m.cpus}) |`,
    '|---|--:|--:|--:|--:|--:|--:|',
    ...report.targets.map(
      (t) =>
        `| ${ROUTES.find((r) => r.name === t.route)!.path} — ${t.role} | ${f(t.rps)} | ${f(t.latencyMs.p50, 2)} | ${f(t.latencyMs.p99, 2)} | ${f(t.serverCpuUsPerRequest)} | ${f(t.postgresCpuUsPerRequest)} | ${f(t.cpusBusy, 2)} |`,
    ),
    '',
    '| Route | throughput API/bare | p50 API/bare | server CPU/req API/bare |',
    '|---|--:|--:|--:|',
    ...report.ratios.map((r) => `| ${ROUTES.find((x) => x.name === r.route)!.path} | ${f(r.throughput, 2)} | ${f(r.p50, 2)} | ${f(r.serverCpuPerRequest, 2)} |`),
    '',
    'Throughput ratio below 1 = the full stack serves that fraction of the bare route\'s requests; p50 and CPU ratios above 1 = that many times the bare cost.',
    '',
    ...(report.conditional
      ? [
          '## Conditional reads: the API\'s 304 against its full answer',
          '',
          'Full: the answer computed (`API_READ_CACHE=false`, the API of the table above); kept: the full answer of an API process keeping public reads (the default); 304: that process\'s answer to `If-None-Match` with the same ETag (checked equal, body too).',
          '',
          '| Route | full req/s | kept req/s | 304 req/s | API CPU µs/req full → kept → 304 | Postgres CPU µs/req full → 304 | 304 cost ÷ full (throughput) | 304 cost ÷ full (API + Postgres CPU) | 304 ÷ kept (CPU) |',
          '|---|--:|--:|--:|--:|--:|--:|--:|--:|',
          ...report.conditional.map(
            (c) =>
              `| ${ROUTES.find((x) => x.name === c.route)!.path} | ${f(c.fullRps)} | ${f(c.keptRps ?? NaN)} | ${f(c.notModifiedRps)} | ${f(c.fullServerCpuUs)} → ${f(c.keptServerCpuUs ?? NaN)} → ${f(c.notModifiedServerCpuUs)} | ${f(c.fullPostgresCpuUs)} → ${f(c.notModifiedPostgresCpuUs)} | ${f(c.costByThroughput, 2)} | ${f(c.costByCpu, 2)} | ${f(c.costOfKeptByCpu ?? NaN, 2)} |`,
          ),
          '',
        ]
      : []),
    ...report.warnings.map((w) => `> Warning: ${w}\n`),
  ];
  return lines.join('\n');
}

export interface Ratio {
  route: RouteName;
  throughput: number;
  p50: number;
  p99: number;
  serverCpuPerRequest: number;
}

/** The API's 304 against its full answer, computed and kept, for one route. */
export function conditionalRatioOf(c: { route: RouteName; full: Measured; kept: Measured; notModified: Measured }): ConditionalRatio {
  const full = summarise(c.full);
  const keptFull = summarise(c.kept);
  const notModified = summarise(c.notModified);
  const cpu = (s: typeof full) => s.serverCpuUsPerRequest + s.postgresCpuUsPerRequest;
  return {
    route: c.route,
    fullRps: full.rps,
    keptRps: keptFull.rps,
    notModifiedRps: notModified.rps,
    fullServerCpuUs: full.serverCpuUsPerRequest,
    keptServerCpuUs: keptFull.serverCpuUsPerRequest,
    notModifiedServerCpuUs: notModified.serverCpuUsPerRequest,
    fullPostgresCpuUs: full.postgresCpuUsPerRequest,
    notModifiedPostgresCpuUs: notModified.postgresCpuUsPerRequest,
    costByThroughput: full.rps / notModified.rps,
    costByCpu: cpu(notModified) / cpu(full),
    costOfKeptByCpu: cpu(notModified) / cpu(keptFull),
  };
}

/** API ÷ bare for each route of this run. */
export function ratiosOf(summaries: Summary[]): Ratio[] {
  return ROUTES.map((route) => {
    const api = summaries.find((s) => s.route === route.name && s.role === 'api')!;
    const bare = summaries.find((s) => s.route === route.name && s.role === 'bare')!;
    return {
      route: route.name,
      throughput: api.rps / bare.rps,
      p50: api.latencyMs.p50 / bare.latencyMs.p50,
      p99: api.latencyMs.p99 / bare.latencyMs.p99,
      serverCpuPerRequest: api.serverCpuUsPerRequest / bare.serverCpuUsPerRequest,
    };
  });
}

/** Targets measured while something else used the CPUs. */
export function loadWarnings(summaries: Summary[]): string[] {
  const warnings: string[] = [];
  for (const t of summaries) {
    if (t.otherCpus > 0.3) warnings.push(`${t.route}/${t.role}: ${t.otherCpus.toFixed(2)} CPUs were busy with something else while measuring.`);
    const spread = (Math.max(...t.rpsPerSlice) - Math.min(...t.rpsPerSlice)) / t.rps;
    if (spread > 0.3) warnings.push(`${t.route}/${t.role}: req/s varied ${Math.round(spread * 100)} % between slices (${t.rpsPerSlice.join(', ')}): something else used the CPUs.`);
  }
  return warnings;
}
