/**
 * Benchmark: how long one operator console command takes, typed the way an operator types it
 * (`npm run --silent console -- marketplace list` from the repository root), wall clock from spawn
 * to exit, in two situations:
 *
 *   database running   the embedded PostgreSQL of DATA_DIR is already up (as while `npm start` runs):
 *                      the console joins it.
 *   database stopped   nothing runs: the console starts the embedded PostgreSQL, works, stops it.
 *
 * A fresh DATA_DIR in a temp directory; one unmeasured run first (creates and migrates the database,
 * and builds the console when it is built on demand). Run: npm run -s bench:console (BENCH_CONSOLE_RUNS, default 10)
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
const COMMAND = ['run', '--silent', 'console', '--', 'marketplace', 'list'];

function timeOnce(env: Record<string, string>): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    execFile('npm', COMMAND, { cwd: ROOT, env: { ...process.env, ...env } }, (err, stdout, stderr) => {
      const ms = performance.now() - started;
      if (err) return reject(new Error(`console failed: ${stderr}`));
      if (!Array.isArray(JSON.parse(stdout).items)) return reject(new Error(`unexpected output: ${stdout}`));
      resolve(ms);
    });
  });
}

async function series(env: Record<string, string>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) times.push(await timeOnce(env));
  return times;
}

const date = new Date().toISOString();
const dir = mkdtempSync(path.join(os.tmpdir(), 'hm-bench-console-'));
chmodSync(dir, 0o755); // the database runs as its own user when we are root
try {
  const port = await freePort();
  const env = { DATA_DIR: dir, EMBEDDED_PG_PORT: String(port), API_MODE: 'test' };
  delete process.env.DATABASE_URL;
  console.error('bench: first run (initdb, migrations)…');
  await timeOnce(env);

  console.error(`bench: ${RUNS} runs with the database running…`);
  const server = await startEmbeddedPostgres({ pgDir: path.join(dir, 'pg'), port });
  let running: number[];
  try {
    running = await series(env);
  } finally {
    await server.stop();
  }
  console.error(`bench: ${RUNS} runs with the database stopped…`);
  const stopped = await series(env);

  const row = (name: string, xs: number[]) => `| ${name} | ${f(percentile(xs, 0.5))} | ${f(Math.min(...xs))} | ${f(Math.max(...xs))} |`;
  const md = [
    `# Console command latency (${date})`,
    '',
    `\`npm run --silent console -- marketplace list\`, ${RUNS} runs each, wall clock in ms.`,
    '',
    '| Database | median | min | max |',
    '|---|--:|--:|--:|',
    row('running (joined)', running),
    row('stopped (started and stopped by the console)', stopped),
    '',
  ].join('\n');
  writeResults('console', date, { date, machine: machine(), runs: RUNS, command: `npm ${COMMAND.join(' ')}`, running, stopped }, md);
  process.stdout.write(md);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
