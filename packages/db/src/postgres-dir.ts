import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';

/**
 * What the embedded PostgreSQL keeps beside its cluster directory (`<DATA_DIR>/pg`), and what we read
 * from the cluster: the login and port (`postgres.json`), which process of ours runs the server
 * (`postgres.owner`), and the server's own `postmaster.pid`.
 */

/** A problem with the embedded database that the person starting it must fix: shown as one line. */
export class EmbeddedPostgresError extends Error {
  override name = 'EmbeddedPostgresError';
}

export interface ClusterState {
  /** the port the server listens on, chosen once (free at the time) unless EMBEDDED_PG_PORT says */
  port?: number;
  /** the `postgres` role's password, random per data directory */
  password?: string;
}

const stateFile = (pgDir: string) => path.join(path.dirname(pgDir), 'postgres.json');
const ownerFile = (pgDir: string) => path.join(path.dirname(pgDir), 'postgres.owner');

export function readState(pgDir: string): ClusterState {
  try {
    return JSON.parse(readFileSync(stateFile(pgDir), 'utf8')) as ClusterState;
  } catch {
    return {};
  }
}

/** Written whole and renamed into place, readable by this user only (it holds the password). */
export function writeState(pgDir: string, state: ClusterState): void {
  writePrivate(stateFile(pgDir), `${JSON.stringify(state, null, 2)}\n`);
}

function writePrivate(file: string, content: string) {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, content, { mode: 0o600 });
  renameSync(tmp, file);
}

/** The process of ours that started the server and will stop it (its postmaster's parent). */
export function writeOwner(pgDir: string, pid: number): void {
  writePrivate(ownerFile(pgDir), `${pid}\n`);
}

export function readOwner(pgDir: string): number | undefined {
  try {
    return Number(readFileSync(ownerFile(pgDir), 'utf8').trim()) || undefined;
  } catch {
    return undefined;
  }
}

export interface RunningServer {
  pid: number;
  port: number;
  /** the process that started it (while it lives) */
  parent?: number;
  /** its owner died (the postmaster was re-parented): nobody of ours will stop it */
  orphan: boolean;
}

/**
 * The server running on this cluster, if any: `postmaster.pid` names a live `postgres` process for
 * this very directory. A file left by a killed server, or naming a pid now used by something else,
 * is stale (PostgreSQL starts over it); only a live postmaster counts.
 */
export function runningServer(pgDir: string): RunningServer | undefined {
  const pidFile = path.join(pgDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return undefined;
  const [pidLine, dirLine, , portLine] = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(pidLine);
  if (!pid || path.resolve(dirLine ?? '') !== path.resolve(pgDir) || !isAlive(pid)) return undefined;
  const proc = procInfo(pid);
  if (proc && proc.comm !== 'postgres') return undefined;
  const owner = readOwner(pgDir);
  // Without /proc we cannot tell who the parent is: treat the server as owned and leave it alone.
  const orphan = proc ? proc.ppid !== owner : false;
  return { pid, port: Number(portLine), parent: proc?.ppid, orphan };
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function procInfo(pid: number): { comm: string; ppid: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid …": comm may hold spaces and parentheses, so split at the last ")"
    const close = stat.lastIndexOf(')');
    return { comm: stat.slice(stat.indexOf('(') + 1, close), ppid: Number(stat.slice(close + 2).split(' ')[1]) };
  } catch {
    return undefined;
  }
}

/** Removes a `postmaster.pid` that no live server holds (after a crash, or a pid reused since). */
export function removeStalePidFile(pgDir: string): void {
  const pidFile = path.join(pgDir, 'postmaster.pid');
  if (existsSync(pidFile) && !runningServer(pgDir)) {
    try {
      unlinkSync(pidFile);
    } catch {
      // gone meanwhile
    }
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/**
 * As root, PostgreSQL runs as the `postgres` user, which must be able to enter every directory above
 * its cluster. DATA_DIR itself is ours: when only root may enter it (`DATA_DIR=$(mktemp -d)` makes
 * it 0700), its group becomes the database user's and gets search permission (0710): the database
 * user, and nobody else, can pass through to its own `pg` folder; the files beside it stay private
 * (they are 0600). A directory above DATA_DIR is the user's, not ours: it would fail deep inside
 * initdb with a stack, so say which directory and what to do instead, and leave its permissions be.
 * Returns what was changed, for a notice.
 */
export function ensureReachable(pgDir: string, ids: { uid: number; gid: number }, user: string): string | undefined {
  const canEnter = (dir: string) => spawnSync('test', ['-x', dir], { uid: ids.uid, gid: ids.gid }).status === 0;
  if (canEnter(pgDir)) return undefined;
  const dataDir = path.dirname(path.resolve(pgDir));
  const parts = path.resolve(pgDir).split(path.sep).filter(Boolean);
  for (let i = 1; i <= parts.length; i++) {
    const dir = path.sep + parts.slice(0, i).join(path.sep);
    if (canEnter(dir)) continue;
    const st = statSync(dir);
    if (dir === dataDir && st.uid === process.getuid?.()) {
      chownSync(dir, st.uid, ids.gid);
      chmodSync(dir, (st.mode & 0o777) | 0o010);
      if (canEnter(pgDir)) return `DATA_DIR ${dir} was mode ${(st.mode & 0o777).toString(8)}: the database user "${user}" may now pass through it (group ${user}, mode ${((st.mode & 0o777) | 0o010).toString(8)})`;
      continue;
    }
    throw new EmbeddedPostgresError(
      `DATA_DIR ${path.dirname(pgDir)}: PostgreSQL runs as the system user "${user}" (it refuses to run as root), which cannot enter ${dir} (mode ${(st.mode & 0o777).toString(8)}). ` +
        `Let it through (chmod o+x ${dir}) or set DATA_DIR to a directory it can reach.`,
    );
  }
}
