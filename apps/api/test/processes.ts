import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { spawnTs } from './cli.js';

/** A process of ours (`npm start`, `npm run worker`) as a test drives it: output, exit, signals. */
export interface Running {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
  /** waits until the output contains `text` (or fails when the process exits first) */
  waitFor(text: string | RegExp, timeoutMs?: number): Promise<void>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export function start(entry: string, env: Record<string, string>): Running {
  const child = spawnTs(entry, env);
  let out = '';
  child.stderr.on('data', (c) => (out += c));
  child.stdout.on('data', (c) => (out += c));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const has = (t: string | RegExp) => (typeof t === 'string' ? out.includes(t) : t.test(out));
  return {
    child,
    output: () => out,
    exited,
    async waitFor(text, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      while (!has(text)) {
        if (child.exitCode !== null) throw new Error(`${entry} exited (${child.exitCode}) before "${text}":\n${out}`);
        if (Date.now() > deadline) throw new Error(`no "${text}" from ${entry} in ${timeoutMs} ms:\n${out}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async stop(signal = 'SIGINT') {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** `npm start` until its banner is printed. */
export async function startApi(env: Record<string, string>): Promise<Running> {
  const api = start('src/start.ts', { START_STOREFRONT: 'false', START_BACK_OFFICE: 'false', DEMO_LISTINGS: '0', LOG_LEVEL: 'warn', DATABASE_URL: '', ...env });
  await api.waitFor(/Headless Marketplace API is running[\s\S]*Database .*\n[\s\S]*\n\n/);
  return api;
}

/** The pid of the embedded server running on a data directory (from its postmaster.pid). */
export function postmasterPid(dataDir: string): number {
  return Number(readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
}

export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Polls `check` every 50 ms until it returns a value, for at most `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T | undefined> | T | undefined, timeoutMs = 15_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`${what}: not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
