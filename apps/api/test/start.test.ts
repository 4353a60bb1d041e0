import { existsSync, mkdtempSync, readFileSync, chmodSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { freePort } from '@hm/db/testing';
import { spawnTs } from './cli.js';

/** `npm start` as a new user meets it: fresh data dir, demo marketplace, printed keys that work, clean Ctrl-C. */
const dir = mkdtempSync(path.join(tmpdir(), 'hm-start-'));
chmodSync(dir, 0o755);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function boot(env: Record<string, string>) {
  const child = spawnTs('src/start.ts', env);
  let err = '';
  child.stderr.on('data', (c) => (err += c));
  child.stdout.resume();
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const deadline = Date.now() + 60_000;
  while (!err.includes('Demo publishable key') && Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`start exited early: ${err}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, exited, output: () => err };
}

test('first start seeds the demo marketplace and prints working keys; Ctrl-C stops everything', async () => {
  const apiPort = await freePort();
  const env = { DATA_DIR: dir, API_PORT: String(apiPort), EMBEDDED_PG_PORT: String(await freePort()), START_STOREFRONT: 'false', LOG_LEVEL: 'warn', DATABASE_URL: '' };
  const first = await boot(env);
  const out = first.output();
  expect(out).toContain('Created the demo marketplace');
  const secret = /Demo secret key\s+(sk_test_\S+)/.exec(out)![1]!;
  const publishable = /Demo publishable key\s+(pk_test_\S+)/.exec(out)![1]!;
  expect(out).toContain(`http://localhost:${apiPort}/docs`);

  const base = `http://127.0.0.1:${apiPort}`;
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

  first.child.kill('SIGINT');
  expect(await first.exited, first.output()).toBe(0);
  expect(existsSync(path.join(dir, 'pg', 'postmaster.pid'))).toBe(false); // no orphaned postgres

  // Second start: same data, no second demo, the same keys printed again.
  const second = await boot(env);
  expect(second.output()).not.toContain('Created the demo marketplace');
  expect(second.output()).toContain(secret);
  const again = await fetch(`${base}/v1/marketplace`, { headers: { authorization: `Bearer ${secret}` } });
  expect(again.status).toBe(200);
  second.child.kill('SIGTERM');
  expect(await second.exited, second.output()).toBe(0);
  expect(JSON.parse(readFileSync(path.join(dir, 'demo-keys.test.json'), 'utf8'))).toEqual({ secret, publishable });
}, 120_000);
