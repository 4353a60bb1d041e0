import pg from 'pg';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { createOrm, tenantEm, uuidv7, type EntityManager, type MikroORM } from './orm.js';
import { createTestDatabase } from './testing/index.js';
import { isDatabaseUnavailable } from './unavailable.js';

/**
 * A connection whose backend dies in the middle of a transaction (server killed or restarted, session
 * terminated) must go back to the pool, which discards it: before, the failed ROLLBACK skipped the
 * release, each such death took one of the pool's slots for ever, and closing the ORM hung on them.
 */
const POOL_MAX = 2;
const ROUNDS = POOL_MAX * 2;
const PROMPT_MS = 2000; // well under the pool's 5 s connection timeout that a leaked pool ends in

type Execute = (sql: string) => Promise<unknown[]>;

let url: string;
let admin: pg.Client;

beforeAll(async () => {
  url = await createTestDatabase(inject('adminDatabaseUrl'));
  admin = new pg.Client({ connectionString: url });
  await admin.connect();
});
afterAll(() => admin.end());

/** Resolves with the value, or rejects if it takes longer than `ms`. */
async function within<T>(ms: number, what: string, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: not done within ${ms} ms`)), ms)));
  try {
    return await Promise.race([p, late]);
  } finally {
    clearTimeout(timer);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const backendAlive = async (pid: number) => ((await admin.query('select 1 from pg_stat_activity where pid = $1', [pid])).rowCount ?? 0) > 0;

async function terminate(pid: number): Promise<void> {
  await admin.query('select pg_terminate_backend($1)', [pid]);
  while (await backendAlive(pid)) await sleep(10); // the next statement meets a dead session
}

async function pidOf(execute: Execute): Promise<number> {
  const [row] = (await execute('select pg_backend_pid() as pid')) as { pid: number }[];
  return row!.pid;
}

async function poolOf(orm: MikroORM): Promise<pg.Pool> {
  return (await orm.em.getConnection().getNativeClient()) as unknown as pg.Pool;
}

/** What a leaked connection breaks: the next query waits out the pool, and closing waits for ever. */
async function expectPoolHealthy(orm: MikroORM): Promise<void> {
  const rows = await within(PROMPT_MS, 'a query afterwards', orm.em.getConnection().execute<{ ok: number }[]>('select 1 as ok'));
  expect(rows).toEqual([{ ok: 1 }]);
  const pool = await poolOf(orm);
  expect({ checkedOut: pool.totalCount - pool.idleCount, waiting: pool.waitingCount }).toEqual({ checkedOut: 0, waiting: 0 });
  await within(PROMPT_MS, 'orm.close()', orm.close(true));
}

async function withOrm(poolMax: number, body: (orm: MikroORM) => Promise<void>): Promise<void> {
  const orm = await createOrm(url, { poolMax });
  try {
    await body(orm);
  } finally {
    void orm.close(true); // closed already when it went well; a leaked pool never closes: not awaited
  }
}

const paths: Record<string, (em: EntityManager, work: (execute: Execute) => Promise<void>) => Promise<void>> = {
  'connection.transactional': (em, work) => em.getConnection().transactional((trx) => work((sql) => em.getConnection().execute(sql, [], 'all', trx))),
  'em.transactional': (em, work) => em.transactional((tx) => work((sql) => tx.execute(sql))),
  'em.fork().transactional': (em, work) => em.fork().transactional((tx) => work((sql) => tx.execute(sql))),
  'a tenant fork (session context per transaction)': (em, work) => tenantEm(em, uuidv7()).transactional((tx) => work((sql) => tx.execute(sql))),
};

const deaths: Record<string, (execute: Execute, pid: number) => Promise<void>> = {
  // the statement in flight fails, then the ROLLBACK
  'during a statement': async (execute, pid) => {
    const killed = (async () => {
      while (!(await admin.query(`select 1 from pg_stat_activity where pid = $1 and query like 'select pg_sleep%'`, [pid])).rowCount) await sleep(10);
      await terminate(pid);
    })();
    await execute('select pg_sleep(30)').finally(() => killed);
  },
  // idle in the transaction: the COMMIT fails, then the ROLLBACK
  'before commit': async (_execute, pid) => terminate(pid),
};

for (const [pathName, run] of Object.entries(paths)) {
  for (const [deathName, die] of Object.entries(deaths)) {
    test(`${pathName}, backend terminated ${deathName}, ${ROUNDS}× with a pool of ${POOL_MAX}: each fails as unavailable, the pool keeps working, holds no connection, and closes`, async () => {
      await withOrm(POOL_MAX, async (orm) => {
        for (let i = 0; i < ROUNDS; i++) {
          const failure = await within(PROMPT_MS, `round ${i}`, run(orm.em, async (execute) => die(execute, await pidOf(execute))).then(() => undefined, (e: unknown) => e));
          expect(isDatabaseUnavailable(failure), `round ${i}: ${String(failure)}`).toBe(true);
        }
        await expectPoolHealthy(orm);
      });
    });
  }
}

test('BEGIN on a pooled connection whose backend is being terminated (a restart under load): the pool keeps working and closes', async () => {
  await withOrm(1, async (orm) => {
    const execute: Execute = (sql) => orm.em.getConnection().execute(sql);
    for (let i = 0; i < 10; i++) {
      // the previous round's dead client may still sit idle until its socket's close is read: once more then
      const pid = await pidOf(execute).catch(() => pidOf(execute));
      const killed = admin.query('select pg_terminate_backend($1)', [pid]);
      await sleep(i % 3); // lands before, on or after the BEGIN
      const failure = await within(PROMPT_MS, `round ${i}`, orm.em.fork().transactional((em) => em.execute('select 1')).then(() => undefined, (e: unknown) => e));
      if (failure !== undefined) expect(isDatabaseUnavailable(failure), `round ${i}: ${String(failure)}`).toBe(true);
      await killed;
      while (await backendAlive(pid)) await sleep(10);
    }
    await expectPoolHealthy(orm);
  });
});

test('a ROLLBACK that fails on a live connection: the session is ended (its locks go with it), never pooled mid-transaction', async () => {
  await withOrm(1, async (orm) => {
    const pool = await poolOf(orm);
    // the one client of this pool: its ROLLBACK fails without reaching the server, as a live session's might
    pool.once('acquire', (client: pg.PoolClient) => {
      const query = client.query.bind(client) as (sql: string, values?: unknown[]) => Promise<unknown>;
      Object.assign(client, { query: (sql: string, values?: unknown[]) => (sql === 'rollback' ? Promise.reject(new Error('rollback refused')) : query(sql, values)) });
    });
    let pid = 0;
    const failure = await orm.em.fork().transactional(async (em) => {
      pid = await pidOf((sql) => em.execute(sql));
      await em.execute('select pg_advisory_xact_lock(4242)');
      throw new Error('the work failed');
    }).catch((e: unknown) => e);
    expect((failure as Error).message).toBe('the work failed'); // the rollback's failure does not mask it
    await within(PROMPT_MS, 'the session ends', (async () => { while (await backendAlive(pid)) await sleep(10); })());
    expect((await admin.query('select pg_try_advisory_lock(4242) as free')).rows).toEqual([{ free: true }]);
    await admin.query('select pg_advisory_unlock(4242)');
    await expectPoolHealthy(orm);
  });
});

test('a client handed back inside a transaction is closed by the pool; one handed back idle is kept', async () => {
  await withOrm(2, async (orm) => {
    const pool = await poolOf(orm);
    const idle = await pool.connect();
    const inTransaction = await pool.connect();
    await inTransaction.query('begin');
    const onClient = (c: pg.PoolClient): Execute => async (sql) => (await c.query(sql)).rows;
    const [idlePid, busyPid] = [await pidOf(onClient(idle)), await pidOf(onClient(inTransaction))];
    idle.release();
    inTransaction.release();
    await within(PROMPT_MS, 'the in-transaction session ends', (async () => { while (await backendAlive(busyPid)) await sleep(10); })());
    expect({ total: pool.totalCount, idle: pool.idleCount, idleAlive: await backendAlive(idlePid) }).toEqual({ total: 1, idle: 1, idleAlive: true });
    await expectPoolHealthy(orm);
  });
});
