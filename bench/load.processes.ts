/**
 * bench:load's processes: each part of a deployment (an API process, a job worker, or a `cluster`
 * balancer with its API processes) runs as `load.ts --child <role>`, talking to the bench over IPC.
 */
import { fork, type ChildProcess } from 'node:child_process';
import cluster from 'node:cluster';
import { fileURLToPath } from 'node:url';
import { startApi } from './lib.js';
import { WORKER_CONCURRENCY } from './load.settings.js';

/** the script every part runs as (`--child <role>`) */
const ENTRY = fileURLToPath(new URL('./load.ts', import.meta.url));

/** `api`: one API process; `worker`: one job worker; `balancer`: a `cluster` primary with BENCH_API_PROCESSES API processes on one port */
export type Role = 'api' | 'worker' | 'balancer';
type ChildMessage = { type: 'ready'; apiUrl: string; pids: number[] };

/** `--child api|worker|balancer`: one part of the deployment in its own process, talking to the bench over IPC. */
export async function child(role: Role) {
  if (role === 'balancer') return balancer();
  const env = process.env;
  const stack = await startApi(
    env.BENCH_DATABASE_URL!,
    env.BENCH_DIR!,
    role === 'api'
      ? { apiKeyCacheMs: 1000, directUrl: env.BENCH_DIRECT_URL!, readCache: env.BENCH_READ_CACHE === '1', ...(env.BENCH_PORT ? { port: Number(env.BENCH_PORT) } : {}) }
      : { http: false, worker: { concurrency: WORKER_CONCURRENCY } },
  );
  process.on('message', async (m: { type: string }) => {
    if (m.type === 'stop') {
      await stack.stop();
      process.exit(0);
    }
  });
  process.on('disconnect', () => void stack.stop().finally(() => process.exit(0)));
  process.send!({ type: 'ready', apiUrl: stack.apiUrl, pids: [process.pid] } satisfies ChildMessage);
}

/**
 * The load balancer of the topology run: Node's `cluster` primary forks the API processes (each
 * `--child api` on the same port) and hands them accepted connections round-robin; it serves nothing itself.
 */
async function balancer() {
  const { freePort } = await import('@hm/db/testing/global-setup');
  const port = await freePort();
  cluster.setupPrimary({ exec: ENTRY, args: ['--child', 'api'], execArgv: process.execArgv });
  const workers = Array.from({ length: Number(process.env.BENCH_API_PROCESSES) }, () => cluster.fork({ BENCH_PORT: String(port) }));
  const urls = await Promise.all(
    workers.map(
      (w) =>
        new Promise<string>((res, rej) => {
          w.once('exit', (code) => rej(new Error(`an API process exited (${code}) before it was ready`)));
          w.on('message', (m: ChildMessage) => m.type === 'ready' && res(m.apiUrl));
        }),
    ),
  );
  const stop = async () => {
    await Promise.all(workers.map((w) => new Promise((res) => (w.isDead() ? res(null) : (w.once('exit', res), w.send({ type: 'stop' }))))));
    process.exit(0);
  };
  process.on('message', (m: { type: string }) => m.type === 'stop' && void stop());
  process.on('disconnect', () => void stop());
  process.send!({ type: 'ready', apiUrl: urls[0]!, pids: [process.pid, ...workers.map((w) => w.process.pid!)] } satisfies ChildMessage);
}

export interface Child {
  apiUrl: string;
  /** the balancer first, then its API processes; one pid for the others */
  pids: number[];
  stop(): Promise<void>;
}

export function startChild(role: Role, env: Record<string, string>): Promise<Child> {
  const proc: ChildProcess = fork(ENTRY, ['--child', role], {
    execArgv: process.execArgv,
    env: { ...process.env, ...env, NODE_ENV: 'production' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`the ${role} process exited (${code}) before it was ready`));
    proc.once('exit', onExit);
    proc.on('message', (m: ChildMessage) => {
      if (m.type !== 'ready') return;
      proc.off('exit', onExit);
      resolve({
        apiUrl: m.apiUrl,
        pids: m.pids,
        stop: () =>
          new Promise<void>((res) => {
            if (proc.exitCode !== null || proc.signalCode !== null) return res();
            const kill = setTimeout(() => proc.kill('SIGKILL'), 5000);
            proc.once('exit', () => (clearTimeout(kill), res()));
            proc.send({ type: 'stop' }, (err) => err && proc.kill('SIGTERM'));
          }),
      });
    });
  });
}
