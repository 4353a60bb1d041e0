import { execFile, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const API_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

type Ran = { code: number; stdout: string; stderr: string };

function runNode(nodeArgs: string[], env: Record<string, string>): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(process.execPath, nodeArgs, { cwd: API_DIR, env: { ...process.env, ...env } }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/**
 * Runs the console the way `npm run console` does: plain Node on src/console/launch.ts, which runs
 * the cached esbuild bundle (built on first use, and again only after a source changes). Through
 * tsx every command compiled ~90 TypeScript files first: seconds per command on a loaded machine,
 * and a test of six commands ran out of time.
 */
export function runConsole(args: string[], env: Record<string, string>): Promise<Ran> {
  return runNode(['src/console/launch.ts', ...args], env);
}

export function spawnTs(entry: string, env: Record<string, string>) {
  return spawn(process.execPath, ['--import', 'tsx', entry], { cwd: API_DIR, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
}
