import { existsSync, mkdtempSync, readFileSync, chmodSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { freePort } from '@hm/db/testing';
import { eventually, isRunning, postmasterPid, startApi } from './processes.js';

/**
 * `npm start` when its database goes away, found by killing processes: the API stays up and answers
 * 503 problems with Retry-After, the database is started again, and everything carries on by itself.
 */
const dir = mkdtempSync(path.join(tmpdir(), 'hm-restart-'));
chmodSync(dir, 0o755);
let env: Record<string, string>;
let base: string;
let secret: string;
beforeAll(async () => {
  const port = String(await freePort());
  env = { DATA_DIR: dir, API_PORT: port };
  base = `http://127.0.0.1:${port}`;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const get = (url: string) => fetch(`${base}${url}`, { headers: { authorization: `Bearer ${secret}` } });

test('a killed database: the API answers 503 with Retry-After meanwhile, the database comes back, and so do the API and its worker', async () => {
  const api = await startApi(env);
  secret = /Demo secret key\s+(sk_test_\S+)/.exec(api.output())![1]!;
  try {
    expect((await get('/v1/marketplace')).status).toBe(200);
    const before = postmasterPid(dir);
    process.kill(before, 'SIGKILL');

    // Backends may still answer for a moment after their postmaster died: wait for the outage, then the recovery.
    const seen: number[] = [];
    await eventually(async () => {
      const res = await get('/v1/marketplace');
      seen.push(res.status);
      if (res.status === 200) return seen.includes(503) ? true : undefined;
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      expect(res.headers.get('retry-after')).toBe('5');
      expect(await res.json()).toMatchObject({ status: 503, code: 'service_unavailable' });
      return undefined;
    }, 20_000, 'the API answering again');
    expect(seen.filter((s) => s !== 200 && s !== 503)).toEqual([]); // never a 500
    expect(api.child.exitCode).toBeNull();
    expect(api.output()).toContain('PostgreSQL stopped unexpectedly');
    const after = postmasterPid(dir);
    expect(after).not.toBe(before);
    expect(isRunning(after)).toBe(true);

    // The in-process worker survived too: a sign-up's confirmation email is sent.
    const signUp = await fetch(`${base}/v1/users`, { method: 'POST', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, body: JSON.stringify({ email: 'after@example.com', password: 'after the restart' }) });
    expect(signUp.status).toBe(201);
    const sent = Date.now();
    const mail = await eventually(async () => {
      const items = ((await (await get('/v1/test-helpers/emails?to=after%40example.com')).json()) as { items: { template: string; links: string[] }[] }).items;
      return items.length ? items : undefined;
    }, 20_000, 'the confirmation email').catch((e: Error) => {
      throw new Error(`${e.message}; what npm start said:\n${api.output()}`);
    });
    if (process.env.DEBUG_RESTART) console.log(`email after ${Date.now() - sent} ms\n${api.output()}`);
    expect(mail[0]).toMatchObject({ template: 'email_confirmation' });
  } finally {
    expect(await api.stop(), api.output()).toBe(0);
  }
  expect(existsSync(path.join(dir, 'pg', 'postmaster.pid')), api.output()).toBe(false);
}, 120_000);

test('after npm start is killed, the next start stops the orphaned database and runs its own, which Ctrl-C stops', async () => {
  const crashed = await startApi(env);
  const orphan = postmasterPid(dir);
  crashed.child.kill('SIGKILL');
  await crashed.exited;
  expect(isRunning(orphan)).toBe(true); // detached: it outlived its parent

  const next = await startApi(env);
  expect(next.output()).toContain(`Stopping the PostgreSQL server (pid ${orphan}) left running by a process that ended`);
  expect(isRunning(orphan)).toBe(false);
  const own = postmasterPid(dir);
  expect((await get('/v1/marketplace')).status).toBe(200);
  expect(await next.stop('SIGINT'), next.output()).toBe(0);
  expect(isRunning(own)).toBe(false);
  expect(existsSync(path.join(dir, 'pg', 'postmaster.pid'))).toBe(false);
}, 120_000);

test('a data directory from before generated passwords (postgres:postgres, no password file) gets one on its next start', async () => {
  // Make the cluster look like one made by an earlier version: the fixed password, no postgres.json.
  const first = await startApi(env);
  const { password, port } = JSON.parse(readFileSync(path.join(dir, 'postgres.json'), 'utf8')) as { password: string; port: number };
  const admin = new pg.Client({ connectionString: `postgres://postgres:${password}@127.0.0.1:${port}/postgres` });
  await admin.connect();
  await admin.query(`alter role postgres password 'postgres'`);
  await admin.end();
  expect(await first.stop(), first.output()).toBe(0);
  unlinkSync(path.join(dir, 'postgres.json'));

  const next = await startApi(env);
  try {
    expect((await get('/v1/marketplace')).status).toBe(200);
    const state = JSON.parse(readFileSync(path.join(dir, 'postgres.json'), 'utf8')) as { password: string; port: number };
    expect(state.password).toMatch(/^[0-9a-f]{48}$/);
    const legacy = new pg.Client({ connectionString: `postgres://postgres:postgres@127.0.0.1:${state.port}/postgres` });
    legacy.on('error', () => {});
    await expect(legacy.connect()).rejects.toMatchObject({ code: '28P01' });
  } finally {
    expect(await next.stop(), next.output()).toBe(0);
  }
}, 120_000);
