import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './paths.js';

/** The Next.js apps `npm start` serves beside the API, by their folder under apps/. */
export type NextAppFolder = 'reference-storefront' | 'back-office';

const appDir = (root: string, app: NextAppFolder) => path.join(root, 'apps', app);
export const STOREFRONT_DIR = appDir(REPO_ROOT, 'reference-storefront');
export const BACK_OFFICE_DIR = appDir(REPO_ROOT, 'back-office');

/** Not part of what `next build` compiles: tests, builds, dependencies, and the file Next itself rewrites (next-env.d.ts). */
const SKIP = /^(node_modules|test|test-results|\.next.*|next-env\.d\.ts)$|\.test\.tsx?$/;

function files(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.test(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files(full, out);
    else if (entry.isFile()) out.push(full);
  }
  return out;
}

/** The workspace packages an app's own sources import (`@hm/contract/router` → packages/domain/src). */
function importedPackages(root: string, sources: string[]): string[] {
  const names = new Set<string>();
  for (const f of sources.filter((s) => /\.(ts|tsx|js|mjs)$/.test(s))) {
    for (const m of readFileSync(f, 'utf8').matchAll(/from\s+['"]@hm\/([a-z0-9-]+)/g)) names.add(m[1]!);
  }
  // and the workspace packages those depend on (@hm/contract's types are made of @hm/domain's)
  for (const name of names) {
    const manifest = path.join(root, 'packages', name, 'package.json');
    if (!existsSync(manifest)) continue;
    const deps = (JSON.parse(readFileSync(manifest, 'utf8')) as { dependencies?: Record<string, string> }).dependencies ?? {};
    for (const dep of Object.keys(deps)) if (dep.startsWith('@hm/')) names.add(dep.slice(4));
  }
  return [...names].sort().map((name) => path.join(root, 'packages', name, 'src')).filter((dir) => existsSync(dir));
}

/**
 * Another app's files an app imports by relative path (the back office uses the storefront's
 * security headers and form fields), and the files those import in turn.
 */
function siblingFiles(root: string, app: NextAppFolder, sources: string[]): string[] {
  const own = appDir(root, app) + path.sep;
  const found = new Set<string>();
  const queue = sources.filter((s) => /\.(ts|tsx)$/.test(s));
  for (let f = queue.shift(); f !== undefined; f = queue.shift()) {
    for (const m of readFileSync(f, 'utf8').matchAll(/(?:from|import)\s+['"](\.\.?\/[^'"]+)['"]/g)) {
      const target = path.resolve(path.dirname(f), m[1]!);
      if (target.startsWith(own)) continue;
      const file = [target, `${target}.ts`, `${target}.tsx`].find((c) => statSync(c, { throwIfNoEntry: false })?.isFile());
      if (file && !found.has(file)) {
        found.add(file);
        queue.push(file);
      }
    }
  }
  return [...found];
}

/**
 * A fingerprint of everything an app's production build is made from: its sources and config,
 * the sources of the workspace packages it imports (types included: `next build` checks them),
 * files of another app it imports, the locked dependency versions and the Node version. Same
 * fingerprint, same build.
 */
export function nextInputsHash(app: NextAppFolder, root = REPO_ROOT): string {
  const own = files(appDir(root, app));
  const all = [...own, ...siblingFiles(root, app, own), ...importedPackages(root, own).flatMap((dir) => files(dir)), path.join(root, 'package-lock.json')].sort();
  const hash = createHash('sha256').update(`node ${process.version}\n`);
  for (const f of all) hash.update(`${path.relative(root, f)}\n`).update(readFileSync(f)).update('\n');
  return hash.digest('hex');
}

const stampFile = (app: NextAppFolder, distDir: string) => path.join(appDir(REPO_ROOT, app), distDir, 'hm-build-stamp.json');

/** The app's build in `distDir` was made from these inputs (and finished: Next writes BUILD_ID last). */
export function buildIsCurrent(app: NextAppFolder, distDir: string, hash: string): boolean {
  if (!existsSync(path.join(appDir(REPO_ROOT, app), distDir, 'BUILD_ID'))) return false;
  try {
    return (JSON.parse(readFileSync(stampFile(app, distDir), 'utf8')) as { inputs?: string }).inputs === hash;
  } catch {
    return false;
  }
}

/** Written after a build succeeds, inside the build folder: deleting the folder also forgets the stamp. */
export function stampBuild(app: NextAppFolder, distDir: string, hash: string): void {
  writeFileSync(stampFile(app, distDir), `${JSON.stringify({ inputs: hash, built_at: new Date().toISOString() }, null, 2)}\n`);
}
