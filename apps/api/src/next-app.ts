import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './paths.js';
import { buildIsCurrent, nextInputsHash, stampBuild, type NextAppFolder } from './next-build.js';

export interface NextApp {
  /** `next start` on a production build, or `next dev` (`npm run dev`) */
  readonly mode: 'production' | 'dev';
  stop(): Promise<void>;
}

export interface NextAppOptions {
  /** as the log lines name it: "Storefront", "Back office" */
  name: string;
  folder: NextAppFolder;
  /** its npm workspace (`@hm/storefront`) */
  workspace: string;
  /** its build folder inside the app (NEXT_DIST_DIR) */
  distDir: string;
  /** the environment of `next build`: no secrets (nothing is prerendered from the API, and build output keeps none) */
  buildEnv: NodeJS.ProcessEnv;
  /** the environment of the server (`next start` or `next dev`) */
  runtimeEnv: NodeJS.ProcessEnv;
  dataDir: string;
  dev: boolean;
  log: (line: string) => void;
}

const exitOf = (child: ChildProcess) => new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

/**
 * A Next.js app beside the API (the reference storefront, the back office). Production (`npm start`):
 * `next build` first when the build in `distDir` was made from other inputs (see next-build.ts), then
 * `next start`; the API is already answering meanwhile, and a failed build is one line while the API
 * keeps running. Dev (`npm run dev`): `next dev`, rebuilt on every change. Either runs in the app's own
 * server (its server.ts) as `npm run <script> -w <workspace>` in its own process group, so stopping it
 * stops its children too.
 */
export function runNextApp(o: NextAppOptions): NextApp {
  const { log, name } = o;
  const script = (s: 'build' | 'start' | 'dev', env: NodeJS.ProcessEnv, stdio: 'inherit' | number) =>
    spawn('npm', ['run', '--silent', s, '-w', o.workspace], { cwd: REPO_ROOT, stdio: ['ignore', stdio, stdio], detached: true, env });
  const base = { NEXT_TELEMETRY_DISABLED: '1', NEXT_DIST_DIR: o.distDir };
  let current: ChildProcess | undefined;
  let stopping = false;

  const serve = (s: 'start' | 'dev') => {
    if (stopping) return;
    const child = script(s, { ...o.runtimeEnv, ...base }, 'inherit');
    current = child;
    child.once('exit', (code, signal) => {
      if (!stopping) log(`${name}: next ${s} ended (${signal ?? `exit ${code}`}); the API keeps running.`);
    });
  };

  const buildThenServe = async () => {
    const inputs = nextInputsHash(o.folder);
    if (buildIsCurrent(o.folder, o.distDir, inputs)) {
      log(`${name}: its production build is up to date.`);
    } else {
      mkdirSync(o.dataDir, { recursive: true });
      const logFile = path.join(o.dataDir, `${name.toLowerCase().replace(/\s+/g, '-')}-build.log`);
      log(`${name}: making its production build (next build; about a minute; its output goes to ${logFile})…`);
      const started = Date.now();
      const out = openSync(logFile, 'w');
      const build = script('build', { ...o.buildEnv, ...base }, out);
      current = build;
      const code = await exitOf(build);
      closeSync(out);
      if (stopping) return;
      if (code !== 0) {
        log(`${name}: the production build failed (exit ${code}; see ${logFile}); the API keeps running.`);
        return;
      }
      stampBuild(o.folder, o.distDir, inputs);
      log(`${name}: built in ${Math.round((Date.now() - started) / 1000)} s; starting it.`);
    }
    serve('start');
  };

  if (o.dev) serve('dev');
  else void buildThenServe().catch((e: Error) => log(`${name}: could not be built or started (${e.message}); the API keeps running.`));

  return {
    mode: o.dev ? 'dev' : 'production',
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
