import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import type { Config } from './config.js';
import { REPO_ROOT } from './paths.js';
import { buildIsCurrent, stampBuild, storefrontInputsHash } from './storefront-build.js';

export interface Storefront {
  /** `next start` on a production build, or `next dev` (`npm run dev`) */
  readonly mode: 'production' | 'dev';
  stop(): Promise<void>;
}

/** A storefront script (`npm run <script> -w @hm/storefront`) in its own process group, so stopping it stops its children too. */
function script(name: 'build' | 'start' | 'dev', env: NodeJS.ProcessEnv, stdio: 'inherit' | number): ChildProcess {
  return spawn('npm', ['run', '--silent', name, '-w', '@hm/storefront'], { cwd: REPO_ROOT, stdio: ['ignore', stdio, stdio], detached: true, env });
}

const exitOf = (child: ChildProcess) => new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

/**
 * The reference storefront beside the API. Production (`npm start`): `next build` first when the
 * build in STOREFRONT_DIST_DIR was made from other inputs (see storefront-build.ts), then `next start`;
 * the API is already answering meanwhile, and a failed build is one line while the API keeps running.
 * Dev (`npm run dev`): `next dev`, rebuilt on every change. Either runs in the storefront's own server
 * (apps/reference-storefront/server.ts, which decides the client's address) on STOREFRONT_HOST only.
 */
export function runStorefront(opts: { config: Config; apiKey: string; dev: boolean; log: (line: string) => void }): Storefront {
  const { config, log } = opts;
  // The pay page shows Stripe's Payment Element only when this API takes payments through Stripe
  // (a publishable key beside the local sandbox would offer a form no payment could pass).
  const { STRIPE_PUBLISHABLE_KEY, ...inherited } = process.env;
  const stripe = config.STRIPE_SECRET_KEY && STRIPE_PUBLISHABLE_KEY ? { STRIPE_PUBLISHABLE_KEY } : {};
  const base = { ...inherited, NEXT_TELEMETRY_DISABLED: '1', NEXT_DIST_DIR: config.STOREFRONT_DIST_DIR };
  // The build gets no API key: nothing is prerendered from the API, and no secret ends up in build output.
  // STOREFRONT_URL: an https one turns on HSTS. The dev mailbox and the trusted proxies: see lib/client.ts and server.ts.
  const runtime = {
    ...base,
    ...stripe,
    API_URL: config.apiUrl,
    STOREFRONT_API_KEY: opts.apiKey,
    STOREFRONT_URL: config.storefrontUrl,
    STOREFRONT_PORT: String(config.STOREFRONT_PORT),
    STOREFRONT_HOST: config.STOREFRONT_HOST,
    STOREFRONT_DEV_MAILBOX: config.STOREFRONT_DEV_MAILBOX,
    STOREFRONT_TRUSTED_PROXIES: config.STOREFRONT_TRUSTED_PROXIES ?? '',
  };
  let current: ChildProcess | undefined;
  let stopping = false;

  const serve = (name: 'start' | 'dev') => {
    if (stopping) return;
    const child = script(name, runtime, 'inherit');
    current = child;
    child.once('exit', (code, signal) => {
      if (!stopping) log(`Storefront: next ${name} ended (${signal ?? `exit ${code}`}); the API keeps running.`);
    });
  };

  const buildThenServe = async () => {
    const inputs = storefrontInputsHash();
    if (buildIsCurrent(config.STOREFRONT_DIST_DIR, inputs)) {
      log('Storefront: its production build is up to date.');
    } else {
      mkdirSync(config.dataDir, { recursive: true });
      const logFile = path.join(config.dataDir, 'storefront-build.log');
      log(`Storefront: making its production build (next build; about a minute; its output goes to ${logFile})…`);
      const started = Date.now();
      const out = openSync(logFile, 'w');
      const build = script('build', base, out);
      current = build;
      const code = await exitOf(build);
      closeSync(out);
      if (stopping) return;
      if (code !== 0) {
        log(`Storefront: the production build failed (exit ${code}; see ${logFile}); the API keeps running.`);
        return;
      }
      stampBuild(config.STOREFRONT_DIST_DIR, inputs);
      log(`Storefront: built in ${Math.round((Date.now() - started) / 1000)} s; starting it.`);
    }
    serve('start');
  };

  if (opts.dev) serve('dev');
  else void buildThenServe().catch((e: Error) => log(`Storefront: could not be built or started (${e.message}); the API keeps running.`));

  return {
    mode: opts.dev ? 'dev' : 'production',
    async stop() {
      stopping = true;
      const child = current;
      if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
      const exited = exitOf(child);
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    },
  };
}
