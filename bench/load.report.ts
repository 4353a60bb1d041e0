/**
 * bench:load's report: the markdown of a run (each climb's steps and knee, the read cache's and the
 * topology's ratios), written beside the run's JSON and printed.
 */
import { f, type machine } from './lib.js';
import { MIX_USERS } from './storefront-mix.js';
import { describeDeployment, LISTINGS, P95_LIMIT_MS, STEP_S, TOPOLOGY, type Deployment } from './load.settings.js';
import type { Climb } from './load.climb.js';

/** A deployment's climb with the read cache off or on, of a run's climbs. */
export const climbOf = (runs: Climb[], name: Deployment['name'], readCache: boolean) => runs.find((r) => r.deployment.name === name && r.readCache === readCache);

/** The run's report as load.ts makes it (`report`), with its deployments and why the topology was skipped. */
export function loadMarkdown(report: LoadReport, runs: Climb[], deployments: Deployment[], topologySkipped: string | null): string {
  const find = (name: Deployment['name'], readCache: boolean) => climbOf(runs, name, readCache);
  const m = report.machine;
  const cacheLabel = (rc: boolean) => (rc ? 'read cache on (public reads kept per process, as `npm start`)' : 'read cache off (every read computed, as before the read cache)');
  const section = (r: Climb) => [
    `## ${r.deployment.name === 'one-process' ? 'One process' : 'Topology'}, ${cacheLabel(r.readCache)}: ${describeDeployment(r.deployment)}`,
    '',
    ...(r.deployment.pgbouncer ? ["The workers and the API processes' key-change listeners connect to Postgres directly (LISTEN); the API processes' pools go through PgBouncer.", ''] : []),
    `| connections | req/s | p50 ms | p95 ms | p99 ms | failed | CPU API | CPU worker | CPU Postgres |${r.deployment.pgbouncer ? ' CPU PgBouncer |' : ''}${r.deployment.apiProcesses > 1 ? ' CPU balancer |' : ''} CPU load generator | CPU other processes | API CPU ms/req | Postgres CPU ms/req |`,
    `|--:|--:|--:|--:|--:|--:|--:|--:|--:|${r.deployment.pgbouncer ? '--:|' : ''}${r.deployment.apiProcesses > 1 ? '--:|' : ''}--:|--:|--:|--:|`,
    ...r.steps.map(
      (s) =>
        `| ${s.connections} | ${f(s.rps)} | ${f(s.p50, 1)} | ${f(s.p95, 1)} | ${f(s.p99, 1)} | ${s.non2xx + s.errors + s.timeouts} | ${f(s.cpu.api, 2)} | ${f(s.cpu.worker, 2)} | ${f(s.cpu.postgres, 2)} |${r.deployment.pgbouncer ? ` ${f(s.cpu.pgbouncer, 2)} |` : ''}${r.deployment.apiProcesses > 1 ? ` ${f(s.cpu.balancer, 2)} |` : ''} ${f(s.cpu.loadGenerator, 2)} | ${f(s.cpu.other, 2)} | ${f(s.cpuMsPerRequest.api, 2)} | ${f(s.cpuMsPerRequest.postgres, 2)} |`,
    ),
    '',
    r.knee
      ? `**Knee: ${f(r.knee.rps)} requests/s at ${r.knee.connections} connections** (p95 ${f(r.knee.p95, 1)} ms)${r.firstPastLimit ? `; at ${r.firstPastLimit.connections} connections p95 was ${f(r.firstPastLimit.p95, 1)} ms` : `; p95 stayed within ${P95_LIMIT_MS} ms up to the last step`}. Busiest there: ${r.busiestAtKnee} (${f(r.knee.cpu[r.busiestAtKnee as 'api'], 2)} CPUs of ${m.cpus}).`
      : `No step kept p95 within ${P95_LIMIT_MS} ms.`,
    '',
    ...(r.knee && r.perCoreAtKnee
      ? [
          `CPU per request at the knee: API ${f(r.knee.cpuMsPerRequest.api, 2)} ms, Postgres ${f(r.knee.cpuMsPerRequest.postgres, 2)} ms, worker ${f(r.knee.cpuMsPerRequest.worker, 2)} ms. With one whole core each (and nothing else running), that is at most ~${f(r.perCoreAtKnee.api)} req/s for one API process (Node runs a request's JavaScript on one core) and ~${f(r.perCoreAtKnee.postgres)} req/s per Postgres core for this mix.`,
          '',
        ]
      : []),
    ...(r.otherCpusMean > 0.3
      ? [`> Warning: other processes kept ${f(r.otherCpusMean, 2)} of ${m.cpus} CPUs busy on average during the steps: the knee is this machine's share, not its capacity; the CPU per request is the steadier figure.`, '']
      : []),
    `Statements by Postgres execution time over this climb (\`pg_stat_statements\`, the ${r.statements.length} largest; share of all statements' time):`,
    '',
    '| share | calls | total ms | mean ms | rows/call | statement |',
    '|--:|--:|--:|--:|--:|---|',
    ...r.statements.map((x) => `| ${f(100 * x.share, 1)} % | ${f(x.calls)} | ${f(x.totalMs)} | ${f(x.meanMs, 3)} | ${f(x.rowsPerCall, 1)} | \`${x.query.replaceAll('|', '\\|')}\` |`),
    '',
  ];
  const cacheRatios = deployments.flatMap((d) => {
    const [off, on] = [find(d.name, false), find(d.name, true)];
    const k = report.kneeRatioReadCache[d.name];
    return k != null ? [`**${d.name}: knee with the read cache ÷ without: ${f(k, 2)}** (${f(on!.knee!.rps)} vs ${f(off!.knee!.rps)} req/s).`, ''] : [];
  });
  const topologyRows = TOPOLOGY && !topologySkipped
    ? [
        '## Topology against one process (this run)',
        '',
        '| deployment | read cache | knee req/s | req/s per API process | req/s per Postgres CPU | API CPUs | Postgres CPUs | PgBouncer CPUs | balancer CPUs |',
        '|---|---|--:|--:|--:|--:|--:|--:|--:|',
        ...runs.map((r) =>
          r.knee
            ? `| ${r.deployment.name} | ${r.readCache ? 'on' : 'off'} | ${f(r.knee.rps)} | ${f(r.perApiProcessAtKnee!)} | ${f(r.perPostgresCpuAtKnee!)} | ${f(r.knee.cpu.api, 2)} | ${f(r.knee.cpu.postgres, 2)} | ${f(r.knee.cpu.pgbouncer, 2)} | ${f(r.knee.cpu.balancer, 2)} |`
            : `| ${r.deployment.name} | ${r.readCache ? 'on' : 'off'} | no knee | | | | | | |`,
        ),
        '',
        ...Object.entries(report.topologyRatios ?? {}).flatMap(([mode, t]) =>
          t ? [`Topology ÷ one process (${mode}): knee ${f(t.knee ?? NaN, 2)}×, req/s per API process ${f(t.perApiProcess ?? NaN, 2)}×, req/s per Postgres CPU ${f(t.perPostgresCpu ?? NaN, 2)}×.`, ''] : [],
        ),
      ]
    : topologySkipped
      ? [`Topology: skipped — ${topologySkipped}.`, '']
      : [];
  return [
    `# load — ${report.date}`,
    '',
    `A storefront-like mix (\`bench/storefront-mix.ts\`) at rising concurrency until p95 passes ${P95_LIMIT_MS} ms: 70 % listing search (varied words, prefixes, categories, terms, price ranges, sorts; publishable key), 20 % listing pages, 8 % favourites (save, forget, the saved list; secret key + session), 2 % password sign-ins. ${f(LISTINGS)} listings on sale, ${MIX_USERS} users. Each step: 1 s unmeasured, then ${STEP_S} s measured. CPU in CPUs (1.00 = one core busy the whole step). Each climb below ran in this one run, with the same request sequence, one after the other.`,
    '',
    `Machine: ${m.cpus} CPU (${m.cpuModel}), ${m.memoryGiB} GiB, ${m.platform}, Node ${m.node}, load average at start ${m.loadAverageAtStart.join(' / ')}${m.commit ? `, commit ${m.commit}` : ''}. The load generator, the API, the worker and Postgres share these CPUs.`,
    '',
    ...cacheRatios,
    ...runs.flatMap(section),
    ...topologyRows,
  ].join('\n');
}

export interface LoadReport {
  date: string;
  machine: ReturnType<typeof machine>;
  kneeRatioReadCache: Record<string, number | null>;
  topologyRatios: Record<string, { knee: number | null; perApiProcess: number | null; perPostgresCpu: number | null } | null> | null;
}
