import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { buildApp } from '@hm/api/app';
import { MarketplaceSchema } from '@hm/db/entities';
import { createOrm, tenantEm } from '@hm/db/orm';
import { createTestDatabase, freePort } from '@hm/db/testing';
import { consoleCaller } from '@hm/contract/console';
import { requireChromium } from '@hm/db/testing/chromium';
import { seedDemoPages } from '@hm/domain/demo-pages';
import { consoleContext } from '@hm/domain/core';
import { localPorts } from '@hm/domain/ports';
import { startWorker } from '@hm/jobs/worker';

const STOREFRONT_DIR = fileURLToPath(new URL('..', import.meta.url));
const BACK_OFFICE_DIR = fileURLToPath(new URL('../../back-office', import.meta.url));
export const ARTIFACTS = path.join(STOREFRONT_DIR, 'test-results');

export interface Stack {
  storefrontUrl: string;
  apiUrl: string;
  /** the back-office app's address (with `backOffice: true`) */
  backOfficeUrl?: string;
  /** the stack's own database (for the command line: `DATABASE_URL`) */
  databaseUrl: string;
  secretKey: string;
  browser: Browser;
  /** the operator console on this stack's database (marketplace "browser-shop") */
  operator: ReturnType<typeof consoleCaller>;
  /** publishes the demo's home and about pages (as `npm start` does for the demo) in "browser-shop" */
  demoPages(): Promise<boolean>;
  /** closes the API (the storefront keeps running): how the shop looks when its API is down */
  stopApi(): Promise<void>;
  stop(): Promise<void>;
}

async function waitFor(url: string, child: ChildProcess, timeoutMs: number, log: () => string) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`${url}: its server (next dev) exited with ${child.exitCode}:\n${log()}`);
    try {
      const res = await fetch(url, { redirect: 'manual' });
      if (res.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms:\n${log()}`);
}

export interface StackOptions {
  /** STOREFRONT_HOST (default 127.0.0.1); `0.0.0.0` to be reachable on the machine's other addresses */
  host?: string;
  /** more environment for the storefront (default: the dev mailbox on, for loopback) */
  env?: Record<string, string>;
  /** also the back-office app (apps/back-office, `next dev`), whose URL the API's invitation links and allowed Origins name */
  backOffice?: boolean;
}

/** A Next app's `npm run dev` (its server.ts with `next dev`) in its own process group, with its output kept for errors. */
function nextDev(dir: string, env: Record<string, string>) {
  let output = '';
  const child = spawn('npm', ['run', '--silent', 'dev'], { cwd: dir, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NEXT_DIST_DIR: '.next-test', NEXT_TELEMETRY_DISABLED: '1', ...env } });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  return { child, output: () => output };
}

async function stopChild(child: ChildProcess | undefined) {
  if (!child?.pid || child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  process.kill(-child.pid, 'SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
}

/**
 * The whole shop as a developer runs it: a real API on a port (test mode, its own database), the
 * job worker sending mail to a local mailbox, a marketplace whose storefront URL is this storefront,
 * the storefront's server (`npm run dev`: server.ts with `next dev`) talking to the API with the
 * marketplace's secret key, and headless Chromium.
 */
export async function startStack(opts: StackOptions = {}): Promise<Stack> {
  const chromiumPath = requireChromium();
  const databaseUrl = await createTestDatabase(inject('adminDatabaseUrl'));
  const orm = await createOrm(databaseUrl, { poolMax: 6 });
  const apiPort = await freePort();
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const backOfficePort = opts.backOffice ? await freePort() : undefined;
  const backOfficeUrl = backOfficePort ? `http://localhost:${backOfficePort}` : undefined;
  const ports = localPorts({ dataDir: mkdtempSync(path.join(tmpdir(), 'hm-sf-data-')), mode: 'test' });
  const app = await buildApp({ orm, mode: 'test', apiUrl, ports, ...(backOfficeUrl ? { backOfficeUrl } : {}) });
  await app.listen({ port: apiPort, host: '127.0.0.1' });
  const worker = await startWorker({ connectionString: databaseUrl, concurrency: 2, deps: { orm, mode: 'test', mailFrom: 'no-reply@shop.example', ports } });

  const storefrontPort = await freePort();
  const storefrontUrl = `http://localhost:${storefrontPort}`;
  const operator = consoleCaller(consoleContext({ orm, mode: 'test', ports, publicUrl: apiUrl, ...(backOfficeUrl ? { backOfficeUrl } : {}) }, 'browser-test'));
  const { keys } = await operator.marketplace.create({ name: 'Browser Shop', slug: 'browser-shop', currencies: ['SEK', 'EUR'], locales: ['en', 'sv'], storefront_url: storefrontUrl });

  const { child: next, output } = nextDev(STOREFRONT_DIR, {
    API_URL: apiUrl,
    STOREFRONT_API_KEY: keys.secret,
    STOREFRONT_URL: storefrontUrl,
    STOREFRONT_PORT: String(storefrontPort),
    STOREFRONT_HOST: opts.host ?? '127.0.0.1',
    STOREFRONT_DEV_MAILBOX: 'loopback',
    ...opts.env,
  });
  // the back office beside it: it compiles while the storefront does
  const backOffice = backOfficePort ? nextDev(BACK_OFFICE_DIR, { API_URL: apiUrl, BACK_OFFICE_URL: backOfficeUrl!, BACK_OFFICE_PORT: String(backOfficePort), BACK_OFFICE_HOST: '127.0.0.1' }) : undefined;
  let browser: Browser;
  try {
    await Promise.all([
      waitFor(`${storefrontUrl}/en/auth/sign-in`, next, 180_000, output),
      backOffice && waitFor(`${backOfficeUrl}/sign-in`, backOffice.child, 180_000, backOffice.output),
    ]);
    // Chromium (Debian's package, or CHROMIUM_PATH); the flags keep it off the closed network
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  } catch (err) {
    // a failed start must not leave `next dev` behind: the next file's server would refuse to start beside it
    await Promise.all([stopChild(next), stopChild(backOffice?.child)]);
    await worker.stop();
    await app.close();
    await orm.close(true);
    throw err;
  }
  mkdirSync(ARTIFACTS, { recursive: true });
  let apiClosed: Promise<void> | undefined;
  const stopApi = () => (apiClosed ??= app.close());

  return {
    storefrontUrl,
    apiUrl,
    ...(backOfficeUrl ? { backOfficeUrl } : {}),
    databaseUrl,
    secretKey: keys.secret,
    browser,
    operator,
    async demoPages() {
      const { marketplace } = await operator.marketplace.get({ marketplace: 'browser-shop' });
      const em = tenantEm(orm, marketplace.id);
      return seedDemoPages({ ...ports, em, marketplace: await em.findOneOrFail(MarketplaceSchema, { id: marketplace.id }) });
    },
    stopApi,
    async stop() {
      await browser.close();
      await Promise.all([stopChild(next), stopChild(backOffice?.child)]);
      await worker.stop();
      await stopApi();
      await orm.close(true);
    },
  };
}

/** Keeps a screenshot of the page when a test fails (test-results/<test name>.png). */
export async function screenshotOnFailure(page: Page | undefined, testName: string) {
  if (!page || page.isClosed()) return;
  const file = path.join(ARTIFACTS, `${testName.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}.png`);
  await page.screenshot({ path: file, fullPage: true }).catch(() => {});
}

/**
 * Waits until React has hydrated the element `selector` names (React keeps its props on a hydrated
 * element). A page opened by URL shows server HTML at once; its change handlers (re-quote on
 * change, upload on file choice) exist only after hydration, and `next dev` may take a while.
 */
export async function whenHydrated(page: Page, selector: string) {
  await page.waitForFunction((sel) => {
    const el = document.querySelector(sel);
    return el !== null && Object.keys(el).some((k) => k.startsWith('__reactProps$'));
  }, selector);
}
