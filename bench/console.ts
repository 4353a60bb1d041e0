/**
 * Benchmark: how long one operator console command takes, typed the way an operator types it
 * (`npm run --silent console -- marketplace list` from the repository root), wall clock from spawn
 * to exit, in two situations:
 *
 *   database running   the embedded PostgreSQL of DATA_DIR is already up (as while `npm start` runs):
 *                      the console joins it.
 *   database stopped   nothing runs: the console starts the embedded PostgreSQL, works, stops it.
 *
 * With the database running, references take turns with it (no npm, so only the console's own
 * start differs): the cached bundle through plain Node, and the sources compiled through tsx at
 * start, as the console ran before. And, to see where a command's time goes (issue 30 item 6), the
 * phases by difference: Node alone (`node -e 0`), the bundle and its libraries loaded without the
 * database (`--help`, same command), npm's own start (`npm run … -- --help` minus the bundle's
 * `--help`), and the database part (connect, ORM start, migration check, the command, close: the
 * bundle's command minus its `--help`). Each run's CPU time (user + system, the process and its
 * children) is kept beside its wall time: on a machine busy with other work the wall time grows
 * with the wait for a CPU, the CPU time much less. A fresh DATA_DIR in a temp directory; one
 * unmeasured run first (creates and migrates the database, builds the bundle).
 * Run: npm run -s bench:console (BENCH_CONSOLE_RUNS, default 10)
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmbeddedPostgres } from '@hm/db/postgres';
import { freePort } from '@hm/db/testing/global-setup';
import { f, machine, percentile, writeResults } from './lib.js';

const RUNS = Number(process.env.BENCH_CONSOLE_RUNS ?? 10);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ARGS = ['marketplace', 'list'];

/** What is timed: what operators type, and (for reference, without npm) the bundle vs compiling through tsx. */
const VARIANTS = {
  npm: { label: '`npm run --silent console -- marketplace list`', cmd: 'npm', args: ['run', '--silent', 'console', '--', ...ARGS] },
  bundle: { label: '`node apps/api/src/console/launch.ts marketplace list` (the bundle, no npm)', cmd: process.execPath, args: ['apps/api/src/console/launch.ts', ...ARGS] },
  tsx: { label: '`node --import tsx apps/api/src/console/cli.ts marketplace list` (compiled at start, as before)', cmd: process.execPath, args: ['--import', 'tsx', 'apps/api/src/console/cli.ts', ...ARGS] },
  node: { label: '`node -e 0` (Node alone)', cmd: process.execPath, args: ['-e', '0'] },
  bundleHelp: { label: '`node apps/api/src/console/launch.ts --help` (bundle and libraries loaded, no database)', cmd: process.execPath, args: ['apps/api/src/console/launch.ts', '--help'] },
  npmHelp: { label: '`npm run --silent console -- --help`', cmd: 'npm', args: ['run', '--silent', 'console', '--', '--help'] },
} as const;
type Variant = keyof typeof VARIANTS;

/** One run: wall ms from spawn to exit, and its CPU ms (the child and what it waited for: npm's node, the console). */
function timeOnce(variant: Variant, env: Record<string, string>): Promise<{ wall: number; cpu: number }> {
  const { cmd, args } = VARIANTS[variant];
  const started = performance.now();
  return new Promise((resolve, reject) => {
    // through /usr/bin/time-free accounting: the shell's `times` after the child, for the child's (and its children's) CPU
    const child = spawn('sh', ['-c', '"$@" > "$OUT" 2> "$ERR"; s=$?; times > "$TIMES"; exit $s', 'sh', cmd, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env, OUT: path.join(tmp, 'out'), ERR: path.join(tmp, 'err'), TIMES: path.join(tmp, 'times') },
      stdio: 'ignore',
    });
    child.on('exit', (code) => {
      const wall = performance.now() - started;
      const stdout = readFileSync(path.join(tmp, 'out'), 'utf8');
      if (code !== 0) return reject(new Error(`${VARIANTS[variant].label} failed: ${readFileSync(path.join(tmp, 'err'), 'utf8')}`));
      if ((args as readonly string[]).includes('list') && !Array.isArray(JSON.parse(stdout).items)) return reject(new Error(`unexpected output: ${stdout}`));
      // `times`: the shell's user/system, then its children's, as 0m0.123s
      const [, children = ''] = readFileSync(path.join(tmp, 'times'), 'utf8').trim().split('\n');
      const cpu = [...children.matchAll(/(\d+)m([\d.]+)s/g)].reduce((t, m) => t + Number(m[1]) * 60_000 + Number(m[2]) * 1000, 0);
      resolve({ wall, cpu });
    });
  });
}

/** RUNS rounds, each variant once per round (so all see the same machine load). */
async function series<V extends Variant>(variants: V[], env: Record<string, string>): Promise<{ wall: Record<V, number[]>; cpu: Record<V, number[]> }> {
  const wall = Object.fromEntries(variants.map((v) => [v, [] as number[]])) as Record<V, number[]>;
  const cpu = Object.fromEntries(variants.map((v) => [v, [] as number[]])) as Record<V, number[]>;
  for (let i = 0; i < RUNS; i++) {
    for (const v of variants) {
      const t = await timeOnce(v, env);
      wall[v].push(t.wall);
      cpu[v].push(t.cpu);
    }
  }
  return { wall, cpu };
}

const date = new Date().toISOString();
const host = machine(); // load average before we add any
const dir = mkdtempSync(path.join(os.tmpdir(), 'hm-bench-console-'));
const tmp = mkdtempSync(path.join(os.tmpdir(), 'hm-bench-console-out-'));
chmodSync(dir, 0o755); // the database runs as its own user when we are root
try {
  const port = await freePort();
  const env = { DATA_DIR: dir, EMBEDDED_PG_PORT: String(port), API_MODE: 'test' };
  delete process.env.DATABASE_URL;
  console.error('bench: first run (initdb, migrations, console build)…');
  await timeOnce('npm', env);

  console.error(`bench: ${RUNS} rounds with the database running…`);
  const server = await startEmbeddedPostgres({ pgDir: path.join(dir, 'pg'), port });
  let running: Awaited<ReturnType<typeof series<'npm' | 'bundle' | 'tsx' | 'node' | 'bundleHelp' | 'npmHelp'>>>;
  try {
    running = await series(['npm', 'bundle', 'tsx', 'node', 'bundleHelp', 'npmHelp'], env);
  } finally {
    await server.stop();
  }
  console.error(`bench: ${RUNS} runs with the database stopped…`);
  const stopped = await series(['npm'], env);

  const median = (xs: number[]) => percentile(xs, 0.5);
  const row = (db: string, v: Variant, wall: number[], cpu: number[]) => `| ${db} | ${VARIANTS[v].label} | ${f(median(wall))} | ${f(Math.min(...wall))} | ${f(Math.max(...wall))} | ${f(median(cpu))} |`;
  /** a phase by difference of two variants' medians, wall and CPU */
  const phase = (a: Variant, b: Variant | undefined) => ({
    wall: median(running.wall[a as keyof typeof running.wall]) - (b ? median(running.wall[b as keyof typeof running.wall]) : 0),
    cpu: median(running.cpu[a as keyof typeof running.cpu]) - (b ? median(running.cpu[b as keyof typeof running.cpu]) : 0),
  });
  const phases = {
    node: phase('node', undefined),
    modules: phase('bundleHelp', 'node'),
    database: phase('bundle', 'bundleHelp'),
    npm: phase('npmHelp', 'bundleHelp'),
  };
  const md = [
    `# Console command latency (${date})`,
    '',
    `${RUNS} runs each, in ms from spawn to exit (wall) and CPU (user + system of the process and its children); with the database running the commands take turns, so they see the same machine load (load average at start: ${host.loadAverageAtStart.join(', ')}; on a busy machine every wall time grows with the wait for a CPU, the CPU time much less).`,
    '',
    '| Database | Command | wall median | min | max | CPU median |',
    '|---|---|--:|--:|--:|--:|',
    row('running (joined)', 'npm', running.wall.npm, running.cpu.npm),
    row('running (joined)', 'bundle', running.wall.bundle, running.cpu.bundle),
    row('running (joined)', 'tsx', running.wall.tsx, running.cpu.tsx),
    row('running (joined)', 'node', running.wall.node, running.cpu.node),
    row('running (joined)', 'bundleHelp', running.wall.bundleHelp, running.cpu.bundleHelp),
    row('running (joined)', 'npmHelp', running.wall.npmHelp, running.cpu.npmHelp),
    row('stopped (started and stopped by the console)', 'npm', stopped.wall.npm, stopped.cpu.npm),
    '',
    'Where `npm run --silent console -- marketplace list` spends its time (medians, by difference):',
    '',
    '| Phase | wall ms | CPU ms |',
    '|---|--:|--:|',
    `| Node's own start (\`node -e 0\`) | ${f(phases.node.wall)} | ${f(phases.node.cpu)} |`,
    `| loading the bundle and its libraries (\`--help\` − Node) | ${f(phases.modules.wall)} | ${f(phases.modules.cpu)} |`,
    `| the database part: connect, ORM start, migration check, the command, close (command − \`--help\`) | ${f(phases.database.wall)} | ${f(phases.database.cpu)} |`,
    `| npm's own start (npm's \`--help\` − the bundle's) | ${f(phases.npm.wall)} | ${f(phases.npm.cpu)} |`,
    '',
  ].join('\n');
  writeResults('console', date, { date, machine: host, runs: RUNS, variants: VARIANTS, running, stopped, phases }, md);
  process.stdout.write(md);
} finally {
  rmSync(dir, { recursive: true, force: true });
  rmSync(tmp, { recursive: true, force: true });
}
