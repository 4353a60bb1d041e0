/**
 * `npm run console` starts here, in plain Node (it strips this file's types; no tsx): it runs one
 * esbuild bundle of cli.ts and the workspace code it imports, rebuilt only when one of those sources
 * changed since the last build. Compiling ~90 TypeScript files through tsx's loader at every start
 * was most of a command's time; now a command costs Node's start, loading the libraries it uses and
 * its own database work (see bench/console.ts). Only erasable TypeScript here (Node runs it as is).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import module from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Plugin } from 'esbuild';

const API_DIR = path.resolve(import.meta.dirname, '../..');
const REPO_ROOT = path.resolve(API_DIR, '../..');
const ENTRY = path.join(API_DIR, 'src/console/cli.ts');

interface BuildRecord {
  /** when the build started reading sources (ms since the epoch) */
  startedAt: number;
  /** every file whose change must rebuild: the bundled sources, this file, the workspaces' package.json */
  files: string[];
}

/** Workspace packages are TypeScript sources: bundle them. Libraries stay imports that Node loads itself. */
const workspaceOnly: Plugin = {
  name: 'workspace-only',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@hm/') ? undefined : { path: args.path, external: true }));
    // Each module keeps its own import.meta.url (paths.ts finds the repository root from it).
    build.onLoad({ filter: /\.ts$/ }, async (args) => ({
      loader: 'ts',
      contents: (await readFile(args.path, 'utf8')).replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
    }));
  },
};

function workspaceManifests(): string[] {
  const root = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { workspaces: string[] };
  return root.workspaces.flatMap((pattern) => {
    const base = path.join(REPO_ROOT, pattern.replace(/\/\*$/, ''));
    if (!pattern.endsWith('/*')) return [path.join(base, 'package.json')];
    return readdirSync(base).map((name) => path.join(base, name, 'package.json'));
  }).filter((file) => existsSync(file));
}

const mtime = (file: string): number => {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return Infinity; // gone (or new and unreadable): rebuild
  }
};

/** True when the bundle exists and no file it was built from changed after the build started. */
export function isFresh(outDir: string): boolean {
  let record: BuildRecord;
  try {
    record = JSON.parse(readFileSync(path.join(outDir, 'build.json'), 'utf8')) as BuildRecord;
  } catch {
    return false;
  }
  if (mtime(path.join(outDir, 'cli.mjs')) === Infinity) return false;
  return record.files.every((file) => mtime(file) < record.startedAt);
}

/** Bundles cli.ts into `<outDir>/cli.mjs` (written beside, then renamed: a concurrent run never sees half a file). */
export async function build(outDir: string): Promise<void> {
  const { build: esbuild } = await import('esbuild');
  const startedAt = Date.now();
  mkdirSync(outDir, { recursive: true });
  const tmp = `${process.pid}.${startedAt}`;
  const result = await esbuild({
    entryPoints: [ENTRY],
    outfile: path.join(outDir, `cli.${tmp}.mjs`),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    sourcemap: 'inline',
    metafile: true,
    logLevel: 'error',
    plugins: [workspaceOnly],
  });
  const sources = Object.keys(result.metafile.inputs).map((p) => path.resolve(p));
  const record: BuildRecord = { startedAt, files: [...sources, import.meta.filename, ...workspaceManifests()] };
  writeFileSync(path.join(outDir, `build.${tmp}.json`), JSON.stringify(record));
  renameSync(path.join(outDir, `cli.${tmp}.mjs`), path.join(outDir, 'cli.mjs'));
  renameSync(path.join(outDir, `build.${tmp}.json`), path.join(outDir, 'build.json'));
}

/** Builds when needed, then runs the console with this process's arguments. */
export async function launch(outDir = path.join(API_DIR, 'dist/console')): Promise<void> {
  module.enableCompileCache?.(); // V8 keeps compiled library code between runs
  process.setSourceMapsEnabled(true); // stack traces of unexpected errors point into the sources
  if (!isFresh(outDir)) await build(outDir);
  await import(pathToFileURL(path.join(outDir, 'cli.mjs')).href);
}

if (import.meta.main) await launch();
