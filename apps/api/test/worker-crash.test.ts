import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createOrm, type MikroORM } from '@hm/db/orm';
import { migrate } from '@hm/db/migrate';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '@hm/db/postgres';
import { freePort } from '@hm/db/testing';
import { consoleCaller } from '@hm/contract/console';
import { consoleContext } from '@hm/domain/core';
import { localPorts } from '@hm/domain/ports';
import { runConsole } from './cli.js';
import { eventually, isRunning, postmasterPid, start, type Running } from './processes.js';

/**
 * `npm run worker` killed while it sends an email, stopped by a signal, and left without its
 * database: found as a user would (real processes, kill -9), observed at the email provider (a
 * Resend-compatible server here) and in the outbox.
 */
const dir = mkdtempSync(path.join(tmpdir(), 'hm-worker-crash-'));
chmodSync(dir, 0o755);
let db: EmbeddedDatabase;
let pgPort: number;
let orm: MikroORM;
let env: Record<string, string>;
const workers: Running[] = [];

/** The provider: records every email asked for; answers only while `answering`. */
let answering = false;
const received: { to: string; res: ServerResponse }[] = [];
const provider = createServer((req: IncomingMessage, res: ServerResponse) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    const to = (JSON.parse(body) as { to: string[] }).to[0]!;
    received.push({ to, res });
    if (answering) res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: `re_${received.length}` }));
  });
});
const answerAll = () => {
  answering = true;
  for (const r of received) if (!r.res.headersSent) r.res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 're_late' }));
};

beforeAll(async () => {
  pgPort = await freePort();
  // durable (not `ephemeral`): commits must survive the kill -9 below, as in production
  db = await startEmbeddedPostgres({ pgDir: path.join(dir, 'pg'), port: pgPort });
  orm = await createOrm(db.url, { poolMax: 2 });
  await migrate(orm);
  await new Promise<void>((r) => provider.listen(0, '127.0.0.1', r));
  const providerUrl = `http://127.0.0.1:${(provider.address() as { port: number }).port}`;
  env = { DATABASE_URL: db.url, DATA_DIR: dir, API_MODE: 'test', RESEND_API_KEY: 're_test_key', RESEND_BASE_URL: providerUrl, MAIL_FROM: 'shop@example.com' };
  await operator().marketplace.create({ name: 'Shop', slug: 'shop', currencies: ['SEK'], locales: ['en'], storefront_url: 'https://shop.example' });
}, 60_000);
afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop('SIGKILL')));
  answerAll();
  provider.close();
  await orm.close(true);
  await db.stop();
  rmSync(dir, { recursive: true, force: true });
});

function operator() {
  return consoleCaller(consoleContext({ orm, mode: 'test', ports: localPorts({ dataDir: dir, mode: 'test' }), publicUrl: 'http://localhost' }, 'test'));
}
/** A team-made account: its welcome email (a sign-in link) goes to the outbox for the worker. */
const welcome = (email: string) => operator().users.create({ marketplace: 'shop', email });
const emailStatus = async (to: string) => (await orm.em.getConnection().execute<{ status: string }[]>(`select status from emails where "to" = ?`, [to]))[0]?.status;
const job = async () => (await orm.em.getConnection().execute<{ locked_by: string | null; attempts: number; last_error: string | null }[]>(`select locked_by, attempts, last_error from graphile_worker.jobs where task_identifier = 'send-email'`))[0];
const worker = async () => {
  const w = start('src/worker.ts', env);
  workers.push(w);
  await w.waitFor('worker running');
  return w;
};

test('a worker killed (kill -9) while it sends an email: the next worker sends it within seconds, not 4 hours', async () => {
  answering = false;
  await welcome('ada@example.com');
  const first = await worker();
  await eventually(() => (received.some((r) => r.to === 'ada@example.com') ? true : undefined), 20_000, 'the first worker sending');
  expect((await job())!.locked_by).toMatch(/^pool-/);
  first.child.kill('SIGKILL');
  await first.exited;

  answerAll();
  const started = Date.now();
  await worker();
  await eventually(async () => ((await emailStatus('ada@example.com')) === 'sent' ? true : undefined), 30_000, 'the email sent by the next worker');
  expect(Date.now() - started).toBeLessThan(30_000);
  expect(received.filter((r) => r.to === 'ada@example.com')).toHaveLength(2); // asked again (same idempotency key)
  await eventually(async () => ((await job()) === undefined ? true : undefined), 5000, 'the job completed'); // recorded in a batch
}, 90_000);

test('SIGTERM: a worker stops taking jobs, and an email it could not finish is released (not failed) for the next worker', async () => {
  const running = workers.at(-1)!;
  answering = false;
  await welcome('bo@example.com');
  await eventually(() => (received.some((r) => r.to === 'bo@example.com') ? true : undefined), 20_000, 'the worker sending');
  running.child.kill('SIGTERM');
  expect(await running.exited, running.output()).toBe(0);
  expect(await job()).toMatchObject({ locked_by: null, last_error: null }); // free to run now, no failure counted against it

  answerAll();
  await worker();
  await eventually(async () => ((await emailStatus('bo@example.com')) === 'sent' ? true : undefined), 20_000, 'the email sent by the next worker');
}, 90_000);

test('the database killed under a running job: the worker survives it, the console answers 503 meanwhile, and the job runs once it is back', async () => {
  const running = workers.at(-1)!;
  answering = false;
  await welcome('cy@example.com');
  await eventually(() => (received.some((r) => r.to === 'cy@example.com') ? true : undefined), 20_000, 'the worker sending');
  const pid = postmasterPid(dir);
  process.kill(pid, 'SIGKILL');
  await eventually(() => (isRunning(pid) ? undefined : true), 5000, 'the database gone');
  answerAll(); // the job now fails to record its result: the database is gone

  const meanwhile = await runConsole(['marketplace', 'list'], env);
  expect(meanwhile.code).toBe(1);
  expect(JSON.parse(meanwhile.stderr)).toMatchObject({ status: 503, code: 'service_unavailable' });
  expect(running.child.exitCode, running.output()).toBeNull();

  db = await eventually(() => startEmbeddedPostgres({ pgDir: path.join(dir, 'pg'), port: pgPort }).catch(() => undefined), 20_000, 'the database back');
  await eventually(async () => ((await emailStatus('cy@example.com')) === 'sent' ? true : undefined), 30_000, 'the email sent after the restart');
  await welcome('di@example.com');
  await eventually(async () => ((await emailStatus('di@example.com')) === 'sent' ? true : undefined), 30_000, 'a new email sent');
  expect(running.child.exitCode, running.output()).toBeNull();
  const listed = await runConsole(['marketplace', 'list'], env);
  expect(JSON.parse(listed.stdout).items).toHaveLength(1);
}, 120_000);
