import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, expect, test } from 'vitest';
import { freePort } from '@hm/db/testing';
import { eventually, startApi } from './processes.js';

/**
 * The demo shop as `npm start` seeds it, checked as real processes: in the background after the
 * banner (the API answers at once), complete after a restart, and carried on after `kill -9`.
 * A short shop (DEMO_LISTINGS) keeps this quick; the full 120 are checked in demo-shop.e2e.test.ts.
 */
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
async function fresh(listings: number) {
  const dir = mkdtempSync(path.join(tmpdir(), 'hm-demo-'));
  chmodSync(dir, 0o755);
  dirs.push(dir);
  const port = String(await freePort());
  return { env: { DATA_DIR: dir, API_PORT: port, DEMO_LISTINGS: String(listings) }, dir, base: `http://127.0.0.1:${port}` };
}

const secretOf = (out: string) => /Demo secret key\s+(sk_test_\S+)/.exec(out)![1]!;

async function onSale(base: string, secret: string) {
  const res = await fetch(`${base}/v1/listings?limit=100`, { headers: { authorization: `Bearer ${secret}` } });
  expect(res.status).toBe(200);
  return (await res.json()) as { total: number; items: { title: string; images: { status: string }[] }[] };
}

/** Every listing row of the demo shop, straight from the database (drafts included, which the shop does not show); the work listings for the team (`… (for review)`) are demo-attention.e2e.test.ts's. */
async function listingRows(dir: string) {
  const { password, port } = JSON.parse(readFileSync(path.join(dir, 'postgres.json'), 'utf8')) as { password: string; port: number };
  const db = new pg.Client({ connectionString: `postgres://postgres:${password}@127.0.0.1:${port}/marketplace_test` });
  await db.connect();
  try {
    const { rows } = await db.query<{ title: string; status: string; ready: number; other: number }>(
      `select l.title, l.status,
              count(i.id) filter (where i.status = 'ready')::int as ready,
              count(i.id) filter (where i.status <> 'ready')::int as other
         from listings l left join listing_images i on i.listing_id = l.id
        where l.title not like '%(for review)'
        group by l.id order by l.title`,
    );
    return rows;
  } finally {
    await db.end();
  }
}

test('a fresh start prints the demo accounts, answers before the shop is seeded, seeds it with processed photos; the next start adds nothing', async () => {
  const { env, dir, base } = await fresh(8);
  const first = await startApi(env);
  const out = first.output();
  // The API answers right after the banner, while the shop is still being seeded.
  const secret = secretOf(out);
  expect((await onSale(base, secret)).total).toBeLessThan(8);
  expect(out).not.toContain('Demo shop ready');
  const buyer = /Demo buyer\s+(\S+)\s+password (\S+)/.exec(out)!;
  const seller = /Demo seller\s+(\S+)\s+password (\S+)/.exec(out)!;
  expect([buyer[1], seller[1]]).toEqual(['buyer@demo.example', 'seller@demo.example']);
  // the back office's demo team: an admin and a viewer who can sign in with the printed passwords
  const admin = /Demo admin\s+(\S+)\s+password (\S+)/.exec(out)!;
  const viewer = /Demo viewer\s+(\S+)\s+password (\S+)/.exec(out)!;
  expect([admin[1], viewer[1]]).toEqual(['admin@demo.example', 'viewer@demo.example']);
  for (const [who, role] of [[admin, 'admin'], [viewer, 'viewer']] as const) {
    const res = await fetch(`${base}/console/v1/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ marketplace: 'demo', email: who[1], password: who[2] }) });
    expect(res.status, who[1]).toBe(201);
    expect(((await res.json()) as { operator: { role: string } }).operator.role).toBe(role);
  }

  await first.waitFor(/Demo shop ready: 8 listings on sale \(\d+ s\)\./, 240_000);
  expect(first.output()).toContain('Demo shop: seeding 8 listings with photos in the background…');
  const shop = await onSale(base, secret);
  expect(shop.total).toBe(8);
  expect(shop.items.every((l) => l.images.length >= 1 && l.images.every((i) => i.status === 'ready'))).toBe(true);
  for (const [email, password] of [buyer.slice(1), seller.slice(1)]) {
    const signIn = await fetch(`${base}/v1/sessions`, { method: 'POST', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
    expect(signIn.status, email).toBe(201);
  }
  expect(await first.stop('SIGINT'), first.output()).toBe(0);

  const second = await startApi(env);
  try {
    expect(second.output()).toContain(`Demo buyer            ${buyer[1]}   password ${buyer[2]}`);
    expect(second.output()).toContain(`Demo admin            ${admin[1]}   password ${admin[2]}`);
    await new Promise((r) => setTimeout(r, 1500));
    expect(second.output()).not.toContain('Demo shop');
    expect((await onSale(base, secret)).total).toBe(8);
    const rows = await listingRows(dir); // the embedded database runs while npm start does
    expect(rows).toHaveLength(8);
    expect(rows.every((r) => r.status === 'published' && r.ready >= 1 && r.other === 0)).toBe(true);
  } finally {
    expect(await second.stop('SIGTERM'), second.output()).toBe(0);
  }
}, 360_000);

test('npm start killed (kill -9) mid-seed: the next start finishes the shop, no listing twice and none on sale without its photos', async () => {
  const { env, dir, base } = await fresh(14);
  const crashed = await startApi(env);
  const secret = secretOf(crashed.output());
  await eventually(async () => ((await onSale(base, secret)).total >= 2 ? true : undefined), 180_000, 'two listings on sale');
  expect(crashed.output()).not.toContain('Demo shop ready');
  crashed.child.kill('SIGKILL');
  await crashed.exited;

  const next = await startApi(env);
  try {
    await next.waitFor(/Demo shop: \d+\/14 listings on sale, seeding the rest…/);
    await next.waitFor('Demo shop ready: 14 listings on sale', 240_000);
    const shop = await onSale(base, secret);
    expect(shop.total).toBe(14);
    expect(new Set(shop.items.map((l) => l.title)).size).toBe(14);
    const rows = await listingRows(dir);
    expect(rows).toHaveLength(14); // no draft left behind, no duplicate
    expect(rows.filter((r) => r.status !== 'published' || r.ready < 1 || r.other > 0)).toEqual([]);
  } finally {
    expect(await next.stop('SIGINT'), next.output()).toBe(0);
  }
}, 480_000);
