import { execFile, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const API_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Runs a TypeScript entry of apps/api the way npm scripts do (tsx on this Node). */
export function runTs(entry: string, args: string[], env: Record<string, string>, cwd = API_DIR): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', entry, ...args], { cwd, env: { ...process.env, ...env } }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

export function spawnTs(entry: string, env: Record<string, string>) {
  return spawn(process.execPath, ['--import', 'tsx', entry], { cwd: API_DIR, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
}
