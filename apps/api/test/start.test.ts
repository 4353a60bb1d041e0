import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, chmodSync, rmSync, statSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, expect, test } from 'vitest';
import { freePort } from '@hm/db/testing';
import { startApi, start } from './processes.js';

/** `npm start` as a new user meets it: fresh data dir, demo marketplace, printed keys that work, clean Ctrl-C. */
const dirs: string[] = [];
const dataDir = () => {
  const d = mkdtempSync(path.join(tmpdir(), 'hm-start-'));
  chmodSync(d, 0o755);
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
/** A live deployment needs Stripe; these keys are never used here (nothing is paid in these tests). */
const LIVE_STRIPE = { STRIPE_SECRET_KEY: 'sk_live_startup', STRIPE_WEBHOOK_SECRET: 'whsec_startup', STRIPE_CONNECT_WEBHOOK_SECRET: 'whsec_startup_connect' };
const portOf = (out: string) => Number(/Database .*port (\d+)/.exec(out)![1]);

async function canLogIn(port: number, password: string, database = 'postgres') {
  const client = new pg.Client({ connectionString: `postgres://postgres:${password}@127.0.0.1:${port}/${database}` });
  client.on('error', () => {});
  try {
    await client.connect();
    return client;
  } catch (e) {
    expect((e as { code?: string }).code).toBe('28P01'); // wrong password, not a dead server
    return undefined;
  }
}

test('first start seeds the demo marketplace and prints working keys; Ctrl-C stops everything', async () => {
  // as on a fresh clone: DATA_DIR (and a folder above it) does not exist yet
  const dir = path.join(dataDir(), 'checkout', '.data');
  const API_PORT = String(await freePort());
  const first = await startApi({ DATA_DIR: dir, API_PORT });
  const out = first.output();
  expect(out).toContain('Created the demo marketplace');
  const secret = /Demo secret key\s+(sk_test_\S+)/.exec(out)![1]!;
  const publishable = /Demo publishable key\s+(pk_test_\S+)/.exec(out)![1]!;
  expect(out).toContain(`http://localhost:${API_PORT}/docs`);

  const base = `http://127.0.0.1:${API_PORT}`;
  const market = await fetch(`${base}/v1/marketplace`, { headers: { authorization: `Bearer ${secret}` } });
  expect(market.status).toBe(200);
  const body = (await market.json()) as { slug: string; currencies: string[]; locales: string[]; term_kinds: { key: string }[] };
  expect(body).toMatchObject({ slug: 'demo', currencies: ['SEK', 'EUR'], locales: ['en', 'sv'] });
  expect(body.term_kinds.map((k) => k.key)).toEqual(['brand', 'condition']);
  const cats = (await (await fetch(`${base}/v1/categories?locale=sv`, { headers: { authorization: `Bearer ${publishable}` } })).json()) as { items: { parent_id?: string }[] };
  expect(cats.items.some((c) => c.parent_id)).toBe(true); // two levels deep
  const brands = (await (await fetch(`${base}/v1/catalog-terms?kind=brand`, { headers: { authorization: `Bearer ${publishable}` } })).json()) as { items: unknown[] };
  expect(brands.items.length).toBeGreaterThan(3);
  expect((await fetch(`${base}/docs`)).status).toBe(200);

  // The database login is a password generated for this data directory, readable by its owner only.
  const stateFile = path.join(dir, 'postgres.json');
  expect(statSync(stateFile).mode & 0o777).toBe(0o600);
  const state = JSON.parse(readFileSync(stateFile, 'utf8')) as { password: string; port: number };
  expect(state.password).toMatch(/^[0-9a-f]{48}$/);
  expect(state.port).toBe(portOf(out)); // a free port, remembered
  expect(await canLogIn(state.port, 'postgres')).toBeUndefined();
  await (await canLogIn(state.port, state.password))!.end();

  expect(await first.stop('SIGINT'), first.output()).toBe(0);
  expect(existsSync(path.join(dir, 'pg', 'postmaster.pid'))).toBe(false); // no orphaned postgres

  // Second start: same data and port, no second demo, the same keys printed again.
  const second = await startApi({ DATA_DIR: dir, API_PORT });
  expect(second.output()).not.toContain('Created the demo marketplace');
  expect(second.output()).toContain(secret);
  expect(portOf(second.output())).toBe(state.port);
  const again = await fetch(`${base}/v1/marketplace`, { headers: { authorization: `Bearer ${secret}` } });
  expect(again.status).toBe(200);
  expect(await second.stop('SIGTERM'), second.output()).toBe(0);
  // The demo's keys and accounts (printed on every start) have one plain copy, readable by its owner only.
  const demoFile = path.join(dir, 'demo-keys.test.json');
  expect(statSync(demoFile).mode & 0o777).toBe(0o600);
  const demo = JSON.parse(readFileSync(demoFile, 'utf8'));
  expect(demo).toMatchObject({ secret, publishable, logins: { buyer: { email: 'buyer@demo.example' }, seller: { email: 'seller@demo.example' } } });
  expect(second.output()).toContain(`Demo seller           seller@demo.example  password ${demo.logins.seller.password}`);
}, 120_000);

test('a live deployment starts empty and says how to create its first marketplace, beside a test one (no port clash)', async () => {
  // Two checkouts at once, neither setting EMBEDDED_PG_PORT: each database gets its own free port.
  const [testDir, liveDir] = [dataDir(), dataDir()];
  const [testApi, liveApi] = await Promise.all([startApi({ DATA_DIR: testDir, API_PORT: String(await freePort()) }), startApi({ DATA_DIR: liveDir, API_PORT: String(await freePort()), API_MODE: 'live', ...LIVE_STRIPE })]);
  try {
    expect(portOf(testApi.output())).not.toBe(portOf(liveApi.output()));
    const out = liveApi.output();
    expect(out).not.toContain('Created the demo marketplace');
    expect(out).not.toMatch(/sk_live_|pk_live_/);
    expect(out).toMatch(/Payments +Stripe, webhooks http:\/\/localhost:\d+\/webhooks\/stripe and …\/webhooks\/stripe\/connect\n/);
    expect(out).toContain('No marketplace yet');
    expect(out).toContain('npm run --silent console -- marketplace create');
    expect(existsSync(path.join(liveDir, 'demo-keys.live.json'))).toBe(false);
    const { password } = JSON.parse(readFileSync(path.join(liveDir, 'postgres.json'), 'utf8')) as { password: string };
    const db = (await canLogIn(portOf(out), password, 'marketplace_live'))!;
    try {
      expect((await db.query('select count(*)::int as n from marketplaces')).rows).toEqual([{ n: 0 }]);
    } finally {
      await db.end();
    }
  } finally {
    expect(await liveApi.stop(), liveApi.output()).toBe(0);
    expect(await testApi.stop(), testApi.output()).toBe(0);
  }
}, 120_000);

test('live without Stripe, or test with a live Stripe key, stops before anything starts, with one line', async () => {
  const dir = dataDir();
  for (const [env, line] of [
    [{ API_MODE: 'live' }, 'API_MODE=live needs STRIPE_SECRET_KEY (an sk_live_ key) and STRIPE_WEBHOOK_SECRET: a live deployment takes real payments through Stripe and never uses the payments sandbox.'],
    [{ API_MODE: 'test', ...LIVE_STRIPE }, 'STRIPE_SECRET_KEY is a live key (sk_live_) but API_MODE=test: use an sk_test_ key, or set API_MODE=live.'],
    [
      { API_MODE: 'live', ...LIVE_STRIPE, STRIPE_CONNECT_WEBHOOK_SECRET: '' },
      'API_MODE=live needs STRIPE_CONNECT_WEBHOOK_SECRET: the signing secret of the Connect webhook endpoint <API_URL>/webhooks/stripe/connect (made in Stripe with "Listen to events on Connected accounts"), without which no seller could ever be paid.',
    ],
  ] as const) {
    const api = start('src/start.ts', { DATA_DIR: dir, API_PORT: String(await freePort()), START_STOREFRONT: 'false', START_BACK_OFFICE: 'false', DATABASE_URL: '', STRIPE_SECRET_KEY: '', STRIPE_WEBHOOK_SECRET: '', STRIPE_CONNECT_WEBHOOK_SECRET: '', ...env });
    expect(await api.exited).toBe(1);
    expect(api.output().trim().split('\n')).toEqual([line]);
  }
  expect(existsSync(path.join(dir, 'pg'))).toBe(false); // refused before the database was touched
}, 60_000);

test.runIf(userInfo().uid === 0)('as root, DATA_DIR=$(mktemp -d) (mode 700) works: the database user alone is let through it, by group', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'hm-mktemp-')); // mode 700, owned by root, like mktemp -d
  dirs.push(dir);
  expect(statSync(dir).mode & 0o777).toBe(0o700);
  const api = await startApi({ DATA_DIR: dir, API_PORT: String(await freePort()) });
  try {
    expect(api.output()).toContain(`DATA_DIR ${dir} was mode 700: the database user "postgres" may now pass through it (group postgres, mode 710)`);
    const st = statSync(dir);
    expect([st.mode & 0o777, st.uid, st.gid]).toEqual([0o710, 0, Number(execFileSync('id', ['-g', 'postgres']).toString().trim())]);
    expect(statSync(path.join(dir, 'postgres.json')).mode & 0o777).toBe(0o600); // the password beside the cluster stays root's
    const secret = /Demo secret key\s+(sk_test_\S+)/.exec(api.output())![1]!;
    const base = /API\s+(http:\/\/localhost:\d+)\/v1/.exec(api.output())![1]!.replace('localhost', '127.0.0.1');
    expect((await fetch(`${base}/v1/marketplace`, { headers: { authorization: `Bearer ${secret}` } })).status).toBe(200);
  } finally {
    expect(await api.stop('SIGINT'), api.output()).toBe(0);
  }
}, 90_000);

test.runIf(userInfo().uid === 0)('as root, a DATA_DIR below a directory the database user cannot reach fails with one line that says what to do', async () => {
  const locked = mkdtempSync(path.join(tmpdir(), 'hm-locked-')); // mode 700, like mktemp -d
  dirs.push(locked);
  const api = start('src/start.ts', { DATA_DIR: path.join(locked, 'data'), API_PORT: String(await freePort()), START_STOREFRONT: 'false', START_BACK_OFFICE: 'false', DATABASE_URL: '' });
  expect(await api.exited).toBe(1);
  const lines = api.output().trim().split('\n');
  expect(lines).toEqual([`DATA_DIR ${path.join(locked, 'data')}: PostgreSQL runs as the system user "postgres" (it refuses to run as root), which cannot enter ${locked} (mode 700). Let it through (chmod o+x ${locked}) or set DATA_DIR to a directory it can reach.`]);
}, 60_000);

