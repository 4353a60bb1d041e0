import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isAlive } from './postgres-dir.js';

/** The PostgreSQL binaries as child processes (postgres.ts): waiting for the server, running a tool, stopping a server. */

/** The system user the binaries run as when we are root (PostgreSQL refuses root); undefined otherwise. */
export type Ids = { uid: number; gid: number } | undefined;

/** Resolves once the server says it accepts connections; rejects when it exits first (with its log's end). */
export function ready(child: ChildProcess, onLog?: (line: string) => void): Promise<void> {
  let log = '';
  return new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      log += text;
      onLog?.(text);
      if (log.includes('ready to accept connections')) resolve(); // the phrase may span two chunks
    };
    child.stderr!.on('data', onData);
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`postgres exited (${code}) before it was ready: ${log.slice(-2000)}`)));
  }).then(() => {
    child.removeAllListeners('exit');
    child.removeAllListeners('error');
    child.stderr!.removeAllListeners('data');
    child.stderr!.on('data', (c: Buffer) => onLog?.(c.toString('utf8')));
    // Our process may exit while the server runs (the console joins it; stop() re-refs to wait).
    child.unref();
    (child.stderr as unknown as { unref?: () => void }).unref?.();
  });
}

/** Runs a tool (initdb) to its end; rejects with its output when it fails. */
export function run(bin: string, args: string[], ids: Ids): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { ...ids, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${path.basename(bin)} failed (${code}): ${output}`))));
  });
}

/** SIGINT = PostgreSQL's "fast" shutdown: ends sessions, checkpoints, exits. */
export function stopChild(child: ChildProcess): Promise<void> {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.ref(); // keep this process alive until the server is down
    child.kill('SIGINT');
  });
}

/** Stops a server we did not start (no child handle): fast shutdown, then immediate after 30 s. */
export async function stopPid(pid: number): Promise<void> {
  const signal = (s: NodeJS.Signals) => {
    try {
      process.kill(pid, s);
    } catch {
      // already gone
    }
  };
  signal('SIGINT');
  for (let waited = 0; isAlive(pid); waited += 100) {
    if (waited === 30_000) signal('SIGQUIT');
    await sleep(100);
  }
}
