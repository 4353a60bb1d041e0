/**
 * Benchmark: how long one operator console command takes, typed the way an operator types it
 * (`npm run --silent console -- marketplace list` from the repository root), wall clock from spawn
 * to exit, in two situations:
 *
 *   database running   the embedded PostgreSQL of DATA_DIR is already up (as while `npm start` runs):
 *                      the console joins it.
 *   database stopped   nothing runs: the console starts the embedded PostgreSQL, works, stops it.
 *
 * With the database running, two references take turns with it (no npm, so only the console's own
 * start differs): the cached bundle through plain Node, and the sources compiled through tsx at
 * start, as the console ran before. A fresh DATA_DIR in a temp directory; one unmeasured run first
 * (creates and migrates the database, builds the bundle). Run: npm run -s bench:console
 * (BENCH_CONSOLE_RUNS, default 10)
 */
import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
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
} as const;
type Variant = keyof typeof VARIANTS;

function timeOnce(variant: Variant, env: Record<string, string>): Promise<number> {
  const { cmd, args } = VARIANTS[variant];
  const started = performance.now();
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { cwd: ROOT, env: { ...process.env, ...env } }, (err, stdout, stderr) => {
      const ms = performance.now() - started;
      if (err) return reject(new Error(`console failed: ${stderr}`));
      if (!Array.isArray(JSON.parse(stdout).items)) return reject(new Error(`unexpected output: ${stdout}`));
      resolve(ms);
    });
  });
}

/** RUNS rounds, each variant once per round (so all see the same machine load). */
async function series<V extends Variant>(variants: V[], env: Record<string, string>): Promise<Record<V, number[]>> {
  const times = Object.fromEntries(variants.map((v) => [v, [] as number[]])) as Record<V, number[]>;
  for (let i = 0; i < RUNS; i++) for (const v of variants) times[v].push(await timeOnce(v, env));
  return times;
}

const date = new Date().toISOString();
const host = machine(); // load average before we add any
const dir = mkdtempSync(path.join(os.tmpdir(), 'hm-bench-console-'));
chmodSync(dir, 0o755); // the database runs as its own user when we are root
try {
  const port = await freePort();
  const env = { DATA_DIR: dir, EMBEDDED_PG_PORT: String(port), API_MODE: 'test' };
  delete process.env.DATABASE_URL;
  console.error('bench: first run (initdb, migrations, console build)…');
  await timeOnce('npm', env);

  console.error(`bench: ${RUNS} rounds with the database running…`);
  const server = await startEmbeddedPostgres({ pgDir: path.join(dir, 'pg'), port });
  let running: Record<Variant, number[]>;
  try {
    running = await series(['npm', 'bundle', 'tsx'], env);
  } finally {
    await server.stop();
  }
  console.error(`bench: ${RUNS} runs with the database stopped…`);
  const stopped = await series(['npm'], env);

  const row = (db: string, v: Variant, xs: number[]) => `| ${db} | ${VARIANTS[v].label} | ${f(percentile(xs, 0.5))} | ${f(Math.min(...xs))} | ${f(Math.max(...xs))} |`;
  const md = [
    `# Console command latency (${date})`,
    '',
    `${RUNS} runs each, wall clock in ms, spawn to exit; with the database running the three commands take turns, so they see the same machine load (load average at start: ${host.loadAverageAtStart.join(', ')}; on a busy machine every number grows).`,
    '',
    '| Database | Command | median | min | max |',
    '|---|---|--:|--:|--:|',
    row('running (joined)', 'npm', running.npm),
    row('running (joined)', 'bundle', running.bundle),
    row('running (joined)', 'tsx', running.tsx),
    row('stopped (started and stopped by the console)', 'npm', stopped.npm),
    '',
  ].join('\n');
  writeResults('console', date, { date, machine: host, runs: RUNS, variants: VARIANTS, running, stopped }, md);
  process.stdout.write(md);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
