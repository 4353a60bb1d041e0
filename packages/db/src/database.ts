import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from './postgres.js';
import { createOrm, type MikroORM, type OrmOptions } from './orm.js';
import { migrate } from './migrate.js';

/** How long closing the pool may wait for connections still checked out before the server is stopped anyway. */
const POOL_CLOSE_MS = 5000;

/**
 * Closes the pool, but never waits on it for ever: after a database restart a connection can stay
 * checked out by a request that failed mid-way, and the pool's end() then waits for its release with
 * no timer or socket keeping the process alive, so Node would exit on the spot without stopping the
 * server (a postmaster.pid left behind after Ctrl-C, seen in CI). The timer here is a ref'd handle.
 */
async function closePool(orm: MikroORM): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, POOL_CLOSE_MS)));
  try {
    await Promise.race([orm.close(true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export interface OpenDatabase {
  url: string;
  orm: MikroORM;
  /** true when the URL points at the embedded server under DATA_DIR */
  embedded: boolean;
  close(): Promise<void>;
}

/**
 * The one way processes (API, worker, console) reach the database: DATABASE_URL when set, else the
 * embedded PostgreSQL under DATA_DIR (started here, or joined if another of our processes runs it),
 * with a database per API mode so test and live data never mix. Migrations are applied.
 */
export async function openDatabase(opts: {
  databaseUrl?: string;
  dataDir: string;
  /** unset → the port remembered in DATA_DIR, else a free one */
  embeddedPort?: number;
  /** long-running processes: replace a server orphaned by a crash, restart ours when it dies */
  supervise?: boolean;
  mode: 'test' | 'live';
  orm?: OrmOptions;
  onLog?: (line: string) => void;
  onNotice?: (message: string) => void;
}): Promise<OpenDatabase> {
  let url = opts.databaseUrl;
  let stopServer = async () => {};
  if (!url) {
    const server = await startEmbeddedPostgres({ pgDir: path.join(opts.dataDir, 'pg'), port: opts.embeddedPort, onLog: opts.onLog, onNotice: opts.onNotice, supervise: opts.supervise });
    stopServer = server.stop;
    const name = `marketplace_${opts.mode}`;
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    try {
      const exists = await admin.query('select 1 from pg_database where datname = $1', [name]);
      if (exists.rowCount === 0) await admin.query(`create database ${name}`).catch((e: { code?: string }) => {
        if (e.code !== '42P04') throw e; // created by a concurrent process meanwhile
      });
    } finally {
      await admin.end();
    }
    const u = new URL(server.url);
    u.pathname = `/${name}`;
    url = u.toString();
  }
  const orm = await createOrm(url, opts.orm);
  await migrate(orm);
  return {
    url,
    orm,
    embedded: !opts.databaseUrl,
    async close() {
      try {
        await closePool(orm);
      } finally {
        await stopServer(); // the server we started is stopped even when the pool closes badly (it may have lost the server)
      }
    },
  };
}
