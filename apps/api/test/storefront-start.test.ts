import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { freePort } from '@hm/db/testing';
import { STOREFRONT_DIR } from '../src/next-build.js';
import { startApi, type Running } from './processes.js';

/**
 * `npm start` serves the storefront from a production build: `next build` on the first start (into a
 * build folder of this test's own, so a developer's `.next` is left alone), served by the storefront's
 * server (server.ts: Next's production server) on the loopback interface only, and the next start
 * reuses the build. The production build's security: Secure `__Host-` cookies over plain http to
 * localhost too, the CSP without dev allowances, the dev mailbox off when nothing turns it on.
 */
const DIST = '.next-start-test';
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** The command lines of every process started under `root` (npm → sh → node next …). */
function descendants(root: number): string[] {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((l) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(l)!)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), args: m[3]! }));
  const found: string[] = [];
  let level = [root];
  while (level.length) {
    const next = rows.filter((r) => level.includes(r.ppid));
    found.push(...next.map((r) => r.args));
    level = next.map((r) => r.pid);
  }
  return found;
}

/** Local addresses of the sockets listening on `port` (IPv4 and IPv6), from the kernel's tables: no traffic needed. */
function listeningAddresses(port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  return ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .slice(1)
      .map((l) => l.trim().split(/\s+/))
      .filter((f) => f[1]?.endsWith(`:${hexPort}`) && f[3] === '0A') // 0A: LISTEN
      .map((f) => f[1]!.split(':')[0]!),
  );
}

const decode = (v: string) => v.replaceAll('&quot;', '"').replaceAll('&#x27;', "'").replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');

async function productionSecurity(port: number, output: string) {
  const base = `http://127.0.0.1:${port}`;
  // headers: the CSP without the dev build's 'unsafe-eval', no framing
  const signInPage = await fetch(`${base}/en/auth/sign-in`);
  expect(signInPage.status).toBe(200);
  const csp = signInPage.headers.get('content-security-policy') ?? '';
  expect(csp).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
  expect(csp).not.toContain('unsafe-eval');
  expect(csp).toContain("frame-ancestors 'none'");
  expect(signInPage.headers.get('x-frame-options')).toBe('DENY');
  // the dev mailbox: off unless STOREFRONT_DEV_MAILBOX turns it on, even from loopback
  expect((await fetch(`${base}/en/dev/mailbox`)).status).toBe(404);
  expect(await (await fetch(`${base}/en`)).text()).not.toContain('/dev/mailbox');
  // cookies: Secure and __Host- in a production build, though STOREFRONT_URL is http
  const currency = (await fetch(`${base}/en?currency=EUR`, { redirect: 'manual' })).headers.getSetCookie().join('\n');
  expect(currency).toMatch(/^__Host-hm_currency=EUR; Path=\/; .*Secure/m);
  expect(currency).toMatch(/HttpOnly/);
  // the session cookie, from the sign-in form posted as a browser without JavaScript posts it
  const [, email, password] = /Demo buyer\s+(\S+)\s+password (\S+)/.exec(output) ?? [];
  expect(email).toBeDefined();
  const html = await signInPage.text();
  const form = /<form[^>]*aria-label="Sign in"[\s\S]*?<\/form>/.exec(html)![0];
  const body = new FormData();
  for (const [input] of form.matchAll(/<input [^>]*type="hidden"[^>]*>/g)) {
    const name = /name="([^"]*)"/.exec(input!)?.[1];
    if (name) body.append(decode(name), decode(/value="([^"]*)"/.exec(input!)?.[1] ?? ''));
  }
  body.append('email', email!);
  body.append('password', password!);
  const signedIn = await fetch(`${base}/en/auth/sign-in`, { method: 'POST', body, redirect: 'manual', headers: { origin: base } });
  const session = signedIn.headers.getSetCookie().find((c) => c.startsWith('__Host-hm_session='));
  expect(session, `${signedIn.status} ${signedIn.headers.getSetCookie().join(' | ')}`).toBeDefined();
  expect(session).toMatch(/; Path=\/;/);
  expect(session).toMatch(/; Secure/);
  expect(session).toMatch(/; HttpOnly/);
  expect(session).toMatch(/; SameSite=lax/i);
  expect(session).not.toMatch(/Domain=/i);
}

test('npm start builds the storefront (next build), serves it with its server on 127.0.0.1 only, and the next start reuses the build', async () => {
  rmSync(path.join(STOREFRONT_DIR, DIST), { recursive: true, force: true });
  const dir = mkdtempSync(path.join(tmpdir(), 'hm-sf-start-'));
  chmodSync(dir, 0o755);
  dirs.push(dir);
  const STOREFRONT_PORT = await freePort();
  const env = { DATA_DIR: dir, API_PORT: String(await freePort()), STOREFRONT_PORT: String(STOREFRONT_PORT), START_STOREFRONT: 'true', START_BACK_OFFICE: 'false', STOREFRONT_DIST_DIR: DIST };
  const home = `http://127.0.0.1:${STOREFRONT_PORT}/en`;
  const serving = async (api: Running) => {
    await api.waitFor(/Ready in/, 120_000);
    const res = await fetch(home);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Demo Marketplace');
  };

  const first = await startApi(env);
  try {
    expect(first.output()).toContain(`Storefront     http://localhost:${STOREFRONT_PORT}  (production build)`);
    // The API answers while the storefront is being built.
    expect((await fetch(`http://127.0.0.1:${env.API_PORT}/health`)).status).toBe(200);
    await first.waitFor(/Storefront: making its production build \(next build/);
    await first.waitFor(/Storefront: built in \d+ s; starting it\./, 360_000);
    await serving(first);
    const processes = descendants(first.child.pid!);
    expect(processes.some((p) => /\bnode server\.ts$/.test(p)), processes.join('\n')).toBe(true);
    expect(processes.some((p) => /next dev|--dev/.test(p))).toBe(false);
    await productionSecurity(STOREFRONT_PORT, first.output());
    expect(listeningAddresses(STOREFRONT_PORT)).toEqual(['0100007F']); // 127.0.0.1, nothing else
    const stamp = JSON.parse(readFileSync(path.join(STOREFRONT_DIR, DIST, 'hm-build-stamp.json'), 'utf8'));
    expect(stamp.inputs).toMatch(/^[0-9a-f]{64}$/);
    expect(existsSync(path.join(STOREFRONT_DIR, DIST, 'BUILD_ID'))).toBe(true);
    expect(readFileSync(path.join(dir, 'storefront-build.log'), 'utf8')).toContain('Creating an optimized production build');
  } finally {
    expect(await first.stop('SIGINT'), first.output()).toBe(0);
  }
  expect(listeningAddresses(STOREFRONT_PORT)).toEqual([]); // stopped with npm start

  const second = await startApi(env);
  try {
    await second.waitFor('Storefront: its production build is up to date.');
    await serving(second);
    expect(second.output()).not.toContain('making its production build');
  } finally {
    expect(await second.stop('SIGINT'), second.output()).toBe(0);
  }
}, 600_000);
