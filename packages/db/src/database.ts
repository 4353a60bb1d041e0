import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from './postgres.js';
import { createOrm, type MikroORM, type OrmOptions } from './orm.js';
import { migrate } from './migrate.js';

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
        await orm.close(true);
      } finally {
        await stopServer(); // the server we started is stopped even when the pool closes badly (it may have lost the server)
      }
    },
  };
}
