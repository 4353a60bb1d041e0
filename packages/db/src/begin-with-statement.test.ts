import pg from 'pg';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { createOrm, crossTenantEm, tenantEm, uuidv7, type MikroORM } from './orm.js';
import { sendBeginWithNextStatement, sendBeginWithNextStatementOn } from './releasing-driver.js';
import { createTestDatabase } from './testing/index.js';

/** `begin` and the tenant settings go out with the transaction's first statement (one round trip instead of three). */

function fakeClient() {
  const sent: unknown[][] = [];
  const client = {
    query: (...args: unknown[]) => {
      sent.push(args);
      const sql = String(args[0]);
      const one = { command: 'SELECT', rows: [{ sql }] };
      const parts = sql.split('; ').length;
      return Promise.resolve(parts > 1 ? [...Array.from({ length: parts - 1 }, () => ({ command: 'X', rows: [] })), one] : one);
    },
  };
  sendBeginWithNextStatement(client as unknown as pg.PoolClient);
  return { client: client as unknown as pg.PoolClient, sent };
}

test('begin waits and goes out with the next statement; its answer is that statement’s; commit goes out as it is', async () => {
  const { client, sent } = fakeClient();
  expect(await client.query('begin', [])).toMatchObject({ command: 'BEGIN' });
  expect(sent).toEqual([]);
  expect(await client.query('select 1', [])).toEqual({ command: 'SELECT', rows: [{ sql: 'begin; select 1' }] });
  await client.query('select 2', []);
  await client.query('commit', []);
  expect(sent.map((a) => a[0])).toEqual(['begin; select 1', 'select 2', 'commit']);
});

test('the settings after begin wait too: begin, settings and statement in one message', async () => {
  const { client, sent } = fakeClient();
  await client.query('begin', []);
  expect(await client.query("select set_config('role', 'hm_app', true)", [])).toMatchObject({ command: 'SELECT', rowCount: 1 });
  expect(sent).toEqual([]);
  expect(await client.query('select 5', [])).toEqual({ command: 'SELECT', rows: [{ sql: "begin; select set_config('role', 'hm_app', true); select 5" }] });
  await client.query('commit', []);
  await client.query('begin', []);
  await client.query("select set_config('role', 'hm_app', true)", []);
  await client.query('commit', []); // nothing ran: nothing sent
  expect(sent.map((a) => a[0])).toEqual(["begin; select set_config('role', 'hm_app', true); select 5", 'commit']);
});

test('a transaction ended before any statement sends nothing', async () => {
  const { client, sent } = fakeClient();
  for (const end of ['commit', 'rollback']) {
    await client.query('begin', []);
    expect(await client.query(end, [])).toMatchObject({ command: end.toUpperCase() });
  }
  await client.query('select 3');
  expect(sent.map((a) => a[0])).toEqual(['select 3']);
});

test('a call with parameters after begin: what waits first, on its own, then the call as it was', async () => {
  const { client, sent } = fakeClient();
  await client.query('begin', []);
  await client.query("select set_config('a', 'b', true)", []);
  await client.query('select $1::int', [4]);
  expect(sent).toEqual([["begin; select set_config('a', 'b', true)"], ['select $1::int', [4]]]);
});

let orm: MikroORM;
let url: string;
beforeAll(async () => {
  url = await createTestDatabase(inject('adminDatabaseUrl'));
  orm = await createOrm(url, { poolMax: 2 });
});
afterAll(() => orm.close(true));

test('on a real connection: statements of a transaction share it, a rollback undoes them, tenant settings apply', async () => {
  const em = crossTenantEm(orm);
  const [a, b] = await em.transactional(async (tx) => [
    await tx.getConnection().execute<{ x: string }[]>('select txid_current()::text as x', [], 'all', tx.getTransactionContext()),
    await tx.getConnection().execute<{ x: string }[]>('select txid_current()::text as x', [], 'all', tx.getTransactionContext()),
  ]);
  expect(a[0]!.x).toBe(b[0]!.x);
  const id = uuidv7();
  await expect(
    em.transactional(async (tx) => {
      await tx.getConnection().execute(`insert into marketplaces (id, name, slug, currencies, locales, term_kinds, listing_rules, shipping, commission_percent, created_at, updated_at)
        values ('${id}', 'x', 'x-${id}', '{SEK}', '{en}', '[]', '{}', '{"sizes":[],"zones":[]}', 0, now(), now())`, [], 'run', tx.getTransactionContext());
      throw new Error('undo');
    }),
  ).rejects.toThrow('undo');
  expect(await em.getConnection().execute(`select 1 from marketplaces where id = '${id}'`)).toEqual([]);
  const marketplaceId = uuidv7();
  const [setting] = await tenantEm(orm, marketplaceId).execute<{ m: string; r: string }[]>(`select current_setting('hm.marketplace_id') as m, current_user as r`);
  expect(setting).toEqual({ m: marketplaceId, r: 'hm_app' });
});

test('a client released with a begin waiting goes back to the pool without it', async () => {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  sendBeginWithNextStatementOn(pool);
  try {
    const first = await pool.connect();
    await first.query('begin', []); // held back, then released without an end
    first.release();
    const again = await pool.connect();
    expect(again).toBe(first);
    await again.query('select 1', []);
    expect((again as unknown as { getTransactionStatus(): string }).getTransactionStatus()).toBe('I'); // not inside a transaction
    await again.query('begin', []);
    await again.query('select 1', []);
    expect((again as unknown as { getTransactionStatus(): string }).getTransactionStatus()).toBe('T');
    await again.query('rollback', []);
    again.release();
  } finally {
    await pool.end();
  }
});
