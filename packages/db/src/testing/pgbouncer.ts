import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './global-setup.js';

/** Debian's `pgbouncer` (`apt-get install pgbouncer`; `.ci/run` installs it), or undefined when it is not installed. */
export const PGBOUNCER = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'].find((p) => spawnSync(p, ['--version']).status === 0);

export interface PgBouncer {
  /** `databaseUrl` with PgBouncer's port: what the API's pool connects to */
  url: string;
  /** the PgBouncer process id (for its CPU in benchmarks) */
  pid: number;
  stop(): Promise<void>;
}

/**
 * PgBouncer in transaction mode in front of `databaseUrl` (any database name, the same user and
 * password), listening on 127.0.0.1, with `poolSize` server connections per database and user.
 * Runs as `nobody` when started as root (PgBouncer refuses root). Its files live in a temp dir
 * removed by `stop()`.
 */
export async function startPgBouncer(databaseUrl: string, opts: { poolSize: number; maxClientConn?: number }): Promise<PgBouncer> {
  if (!PGBOUNCER) throw new Error('pgbouncer is not installed (Debian/Ubuntu: `sudo apt-get install pgbouncer`)');
  const direct = new URL(databaseUrl);
  const dir = mkdtempSync(path.join(tmpdir(), 'hm-pgbouncer-'));
  chmodSync(dir, 0o755);
  const port = await freePort();
  const ini = path.join(dir, 'pgbouncer.ini');
  writeFileSync(
    ini,
    [
      '[databases]',
      `* = host=${direct.hostname} port=${direct.port} user=${decodeURIComponent(direct.username)} password=${decodeURIComponent(direct.password)}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = any',
      'pool_mode = transaction',
      `default_pool_size = ${opts.poolSize}`,
      `max_client_conn = ${opts.maxClientConn ?? 200}`,
      'ignore_startup_parameters = extra_float_digits,options',
    ].join('\n'),
  );
  chmodSync(ini, 0o644);
  const proc = spawn(PGBOUNCER, [...(process.getuid?.() === 0 ? ['-u', 'nobody'] : []), ini], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  proc.stderr!.on('data', (d) => (stderr += d));
  const stop = async () => {
    if (proc.exitCode === null && proc.signalCode === null) {
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  for (let i = 0; ; i++) {
    const up = await new Promise<boolean>((r) => {
      const s = connect(port, '127.0.0.1', () => (s.end(), r(true)));
      s.on('error', () => r(false));
    });
    if (up) break;
    if (i > 100 || proc.exitCode !== null) {
      await stop();
      throw new Error(`pgbouncer did not start: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const url = new URL(databaseUrl);
  url.port = String(port);
  return { url: url.toString(), pid: proc.pid!, stop };
}
