import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './paths.js';

const storefrontDir = (root: string) => path.join(root, 'apps', 'reference-storefront');
export const STOREFRONT_DIR = storefrontDir(REPO_ROOT);

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

/** The workspace packages the storefront's own sources import (`@hm/contract/router` → packages/domain/src). */
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
 * A fingerprint of everything a production build is made from: the storefront's sources and
 * config, the sources of the workspace packages it imports (types included: `next build` checks
 * them), the locked dependency versions and the Node version. Same fingerprint, same build.
 */
export function storefrontInputsHash(root = REPO_ROOT): string {
  const own = files(storefrontDir(root));
  const all = [...own, ...importedPackages(root, own).flatMap((dir) => files(dir)), path.join(root, 'package-lock.json')].sort();
  const hash = createHash('sha256').update(`node ${process.version}\n`);
  for (const f of all) hash.update(`${path.relative(root, f)}\n`).update(readFileSync(f)).update('\n');
  return hash.digest('hex');
}

const stampFile = (distDir: string) => path.join(STOREFRONT_DIR, distDir, 'hm-build-stamp.json');

/** The build in `distDir` was made from these inputs (and finished: Next writes BUILD_ID last). */
export function buildIsCurrent(distDir: string, hash: string): boolean {
  if (!existsSync(path.join(STOREFRONT_DIR, distDir, 'BUILD_ID'))) return false;
  try {
    return (JSON.parse(readFileSync(stampFile(distDir), 'utf8')) as { inputs?: string }).inputs === hash;
  } catch {
    return false;
  }
}

/** Written after a build succeeds, inside the build folder: deleting the folder also forgets the stamp. */
export function stampBuild(distDir: string, hash: string): void {
  writeFileSync(stampFile(distDir), `${JSON.stringify({ inputs: hash, built_at: new Date().toISOString() }, null, 2)}\n`);
}
