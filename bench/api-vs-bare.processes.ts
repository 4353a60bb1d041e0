/**
 * api-vs-bare's processes: each server (the API, the bare one) forked in its own process
 * (api-vs-bare.server.ts), asked for its CPU over IPC, and the cleanups that always run (also on
 * SIGINT/SIGTERM).
 */
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ParentMessage, ServerMessage } from './api-vs-bare.server.js';
import type { Role } from './api-vs-bare.routes.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));

export interface Server {
  role: Role;
  child: ChildProcess;
  url: string;
  cpu(): Promise<{ user: number; system: number; rss: number }>;
  stop(): Promise<void>;
}

export function startServer(role: Role, databaseUrl: string): Promise<Server> {
  // fork() reuses this process's execArgv, i.e. tsx's loader: the child runs TypeScript too.
  // BENCH_CPU_PROF=<dir>: V8 CPU profiles of both servers (written when they exit), to see where time goes.
  const profDir = process.env.BENCH_CPU_PROF;
  const child = fork(path.join(HERE, 'api-vs-bare.server.ts'), [role], {
    execArgv: [...process.execArgv, ...(profDir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profDir)}`, `--cpu-prof-name=${role}-\${pid}.cpuprofile`] : [])],
    env: { ...process.env, BENCH_DATABASE_URL: databaseUrl, NODE_ENV: 'production' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let nextId = 0;
  const pending = new Map<number, (m: ServerMessage & { type: 'cpu' }) => void>();
  child.on('message', (m: ServerMessage) => {
    if (m.type !== 'cpu') return;
    pending.get(m.id)?.(m);
    pending.delete(m.id);
  });
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`${role} server exited (${code}) before it was ready`));
    child.once('exit', onExit);
    child.on('message', (m: ServerMessage) => {
      if (m.type !== 'ready') return;
      child.off('exit', onExit);
      resolve({
        role,
        child,
        url: `http://127.0.0.1:${m.port}`,
        cpu: () =>
          new Promise((res) => {
            const id = nextId++;
            pending.set(id, res);
            child.send({ type: 'cpu', id } satisfies ParentMessage);
          }),
        stop: () =>
          new Promise<void>((res) => {
            if (child.exitCode !== null || child.signalCode !== null) return res();
            const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
            child.once('exit', () => (clearTimeout(kill), res()));
            child.send({ type: 'stop' } satisfies ParentMessage, (err) => err && child.kill('SIGTERM'));
          }),
      });
    });
  });
}

export const cleanups: (() => Promise<void> | void)[] = [];
let cleaning: Promise<void> | undefined;
export function cleanup(): Promise<void> {
  return (cleaning ??= (async () => {
    for (const fn of cleanups.reverse()) {
      try {
        await fn();
      } catch (err) {
        console.error('cleanup:', err);
      }
    }
  })());
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void cleanup().finally(() => process.exit(130)));
}
