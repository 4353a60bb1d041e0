import type pg from 'pg';
import { PostgreSqlConnection, PostgreSqlDriver, type Configuration } from '@mikro-orm/postgresql';
import { isDatabaseUnavailable } from './unavailable.js';

type KyselyDialect = ReturnType<PostgreSqlConnection['createKyselyDialect']>;
type KyselyDriver = ReturnType<KyselyDialect['createDriver']>;

/**
 * A connection whose transaction cannot end normally still goes back to the pool, and never into it
 * mid-transaction.
 *
 * Why: MikroORM 7 runs transactions through Kysely, whose ControlledTransaction ends one with
 * `driver.rollbackTransaction()` (or commit) and only then releases the pooled connection: when that
 * statement throws, the release is skipped (kysely issue #1990). A backend that died mid-transaction
 * (server killed or restarted, session terminated) fails its ROLLBACK; MikroORM logs "Failed to roll
 * back transaction" and rethrows the first error, and the pg client stays checked out for ever. Each
 * such death took one of the pool's slots, until every request waited out the connection timeout (503)
 * and `orm.close()` waited for ever. A failed COMMIT goes the same way: MikroORM rolls back after it.
 *
 * The fix has two halves, each where it has what it needs:
 * - the Kysely driver reports a failed ROLLBACK as done, so Kysely releases the connection. That is
 *   true once the session is gone: a transaction never outlives its session, and the server aborts it.
 * - the pool closes a client that comes back still inside a transaction (pg's transaction status from
 *   the server's last ReadyForQuery), so the first half cannot pool a live session mid-transaction
 *   (a ROLLBACK that failed on a live connection): closing it ends the session, and the transaction
 *   with it. pg-pool then drops the client, as it drops one whose connection died (`_release`: not
 *   queryable, or ending), and its slot is free again.
 *
 * Hook: MikroORM builds the pg pool and Kysely's dialect in `PostgreSqlConnection.createKyselyDialect`,
 * and PostgreSqlDriver names that connection class itself, so a driver subclass swaps in a connection
 * subclass that wraps MikroORM's own dialect and pool. Handing MikroORM a ready dialect through
 * `driverOptions` instead would mean rebuilding that pool (its type parsers, the error listeners that
 * keep a dropped connection from crashing the process, `getNativeClient`); node_modules stays as it is.
 */
export class ReleasingPostgreSqlDriver extends PostgreSqlDriver {
  constructor(config: Configuration) {
    super(config);
    // AbstractSqlDriver's constructor made connections of the class PostgreSqlDriver passed it; none
    // is connected yet (the pool is made on connect), so they are replaced before anything uses them.
    Object.assign(this, {
      connection: new ReleasingPostgreSqlConnection(this.config),
      replicas: this.createReplicas((options) => new ReleasingPostgreSqlConnection(this.config, options, 'read')),
    });
  }
}

class ReleasingPostgreSqlConnection extends PostgreSqlConnection {
  override createKyselyDialect(overrides: pg.PoolConfig): KyselyDialect {
    const { onPoolCreated } = (overrides ?? {}) as { onPoolCreated?: (pool: pg.Pool) => unknown };
    const dialect = super.createKyselyDialect({
      ...overrides,
      onPoolCreated: (pool: pg.Pool) => {
        closeClientsReleasedInTransaction(pool);
        sendBeginWithNextStatementOn(pool);
        return onPoolCreated?.(pool);
      },
    } as pg.PoolConfig);
    const createDriver = dialect.createDriver.bind(dialect);
    dialect.createDriver = () => releasingDriver(createDriver(), (message) => this.logger.warn('query', message));
    return dialect;
  }
}

function releasingDriver(driver: KyselyDriver, warn: (message: string) => void): KyselyDriver {
  const begin = driver.beginTransaction.bind(driver);
  const rollback = driver.rollbackTransaction.bind(driver);
  // A BEGIN sent on a session that just died (taken from the pool before the pool heard of it) is
  // dropped the same way, so it too is reported as done, but only when the session is gone: the first
  // statement (or the COMMIT) then fails on it, none can run outside the transaction, and the ROLLBACK
  // after that releases the connection once, as Kysely always does after a rollback.
  driver.beginTransaction = async (connection, settings) => {
    try {
      await begin(connection, settings);
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      warn(`BEGIN failed (${messageOf(error)}); the transaction fails on its first statement`);
    }
  };
  driver.rollbackTransaction = async (connection) => {
    try {
      await rollback(connection);
    } catch (error) {
      warn(`ROLLBACK failed (${messageOf(error)}); the connection is released and discarded`);
    }
  };
  return driver;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

function closeClientsReleasedInTransaction(pool: pg.Pool): void {
  pool.on('release', (_err, client) => {
    const status = client.getTransactionStatus(); // I: idle, T: in a transaction, E: in a failed one
    if (status === 'T' || status === 'E') void client.end(); // sets `_ending` at once: pg-pool drops it below
  });
}

/** Every client of the pool sends `begin` with the statement after it (see below). */
export function sendBeginWithNextStatementOn(pool: pg.Pool): void {
  pool.on('connect', (client) => sendBeginWithNextStatement(client));
  pool.on('release', (_err, client) => forgetWaitingBegin.get(client)?.());
}

/** Never back into the pool with a begin waiting: the next user's first statement would open a transaction. */
const forgetWaitingBegin = new WeakMap<pg.PoolClient, () => void>();

const RESULT = (command: string) => ({ command, rowCount: null, rows: [], fields: [], oid: 0 });

/**
 * `begin`, and the tenant settings after it, go to the server with the transaction's first real
 * statement, in one round trip instead of three. Tenant work runs every statement in a transaction
 * (begin, the tenant's settings, the statements, commit: see tenancy.ts), so a statement on its own
 * costs two round trips instead of four, and a transaction that ends before any statement (a read
 * that found everything it needed in memory) costs none.
 *
 * MikroORM sends its statements with the values inlined (no parameters), so Kysely's plain `begin`
 * and MikroORM's `select set_config(…)` can wait on the client and go out as `begin; select
 * set_config(…); <next statement>` (the simple query protocol runs several statements, in order, as
 * one message; the answer is the last statement's). An error in the settings then fails that
 * statement, and the transaction is rolled back as after any failed statement. Any other call
 * (parameters, a cursor, a callback) sends what waits first, on its own: the client runs calls in order.
 */
/** @internal exported for its tests */
export function sendBeginWithNextStatement(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  let waiting: string[] = [];
  forgetWaitingBegin.set(client, () => (waiting = []));
  const plain = (args: unknown[]) => typeof args[0] === 'string' && (args.length === 1 || (args.length === 2 && Array.isArray(args[1]) && args[1].length === 0));
  (client as { query: unknown }).query = (...args: unknown[]) => {
    const sql = plain(args) ? (args[0] as string) : undefined;
    if (waiting.length === 0) {
      if (sql !== 'begin') return query(...args);
      waiting = ['begin'];
      return Promise.resolve(RESULT('BEGIN'));
    }
    if (sql?.startsWith('select set_config(')) {
      waiting.push(sql);
      return Promise.resolve({ ...RESULT('SELECT'), rowCount: 1 });
    }
    const before = waiting;
    waiting = [];
    if (sql === undefined) {
      (query(before.join('; ')) as Promise<unknown>).catch(() => {}); // the call below fails the same way on a lost session
      return query(...args);
    }
    if (sql === 'commit' || sql === 'rollback') return Promise.resolve(RESULT(sql.toUpperCase()));
    return (query(`${before.join('; ')}; ${sql}`) as Promise<unknown[]>).then((results) =>
      results.length === before.length + 1 ? results[before.length] : results.slice(before.length),
    );
  };
}
