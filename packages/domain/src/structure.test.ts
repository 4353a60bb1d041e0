import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';
import { ABOVE, MAY_USE, MODULES, TRANSPORT } from '../boundaries.js';

/**
 * The domain's shape, read from the source with TypeScript's parser: core/ imports no module and
 * nothing above the modules; a module uses another only through its index.ts and only as MAY_USE
 * says; the arrows between modules form no cycle. (ESLint's no-restricted-imports says the same per
 * import while you type: boundaries.js.)
 */
const SRC = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(SRC, '../../..');

function sources(dir: string, tests = false): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sources(p, tests) : /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') && (tests || !e.name.includes('.test.')) ? [p] : [];
  });
}

/** Where a file sits: `core`, a module's name, `flows`, or `above` (composition, transport). */
function layerOf(file: string): string {
  const first = path.relative(SRC, file).split(path.sep)[0]!;
  if (first === 'core') return 'core';
  if (first === 'flows') return 'flows';
  if (MODULES.includes(first)) return first;
  if (ABOVE.includes(first.replace(/\.ts$/, ''))) return 'above';
  throw new Error(`${path.relative(SRC, file)} is in no layer: put it in core/, a module, or name it in boundaries.js ABOVE`);
}

/** Every import and re-export specifier of a file (static, type-only and dynamic). */
function specifiersOf(file: string): string[] {
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const specs: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) specs.push(node.moduleSpecifier.text);
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) specs.push(node.arguments[0].text);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return specs;
}

/** The relative imports of a file, resolved to files. */
function importsOf(file: string): string[] {
  return specifiersOf(file)
    .filter((s) => s.startsWith('.'))
    .map((s) => path.resolve(path.dirname(file), s.replace(/\.js$/, '.ts')));
}

interface Arrow {
  from: string;
  to: string;
  file: string;
  target: string;
}

function arrows(): Arrow[] {
  return sources(SRC).flatMap((file) =>
    importsOf(file)
      .map((target) => ({ from: layerOf(file), to: layerOf(target), file: path.relative(SRC, file), target: path.relative(SRC, target) }))
      .filter((a) => a.from !== a.to),
  );
}

/** The cycles of a graph (each as a path that returns to its start), by depth-first search. */
function cyclesOf(edges: Record<string, string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (n: string) => {
    state.set(n, 'open');
    stack.push(n);
    for (const m of edges[n] ?? []) {
      if (state.get(m) === 'open') cycles.push([...stack.slice(stack.indexOf(m)), m]);
      else if (!state.has(m)) visit(m);
    }
    stack.pop();
    state.set(n, 'done');
  };
  for (const n of Object.keys(edges)) if (!state.has(n)) visit(n);
  return cycles;
}

describe('the domain’s structure', () => {
  const all = arrows();

  test('core imports no module and nothing above the modules', () => {
    expect(all.filter((a) => a.from === 'core').map((a) => `${a.file} → ${a.target}`)).toEqual([]);
  });

  test('a module uses another module only through its index.ts, and never the layers above it', () => {
    const deep = all.filter((a) => MODULES.includes(a.from) && MODULES.includes(a.to) && a.target !== `${a.to}/index.ts`);
    expect(deep.map((a) => `${a.file} → ${a.target}`)).toEqual([]);
    const up = all.filter((a) => MODULES.includes(a.from) && a.to === 'above');
    expect(up.map((a) => `${a.file} → ${a.target}`)).toEqual([]);
  });

  test('flows use modules only through their index.ts; modules and core never use flows', () => {
    const deep = all.filter((a) => a.from === 'flows' && MODULES.includes(a.to) && a.target !== `${a.to}/index.ts`);
    expect(deep.map((a) => `${a.file} → ${a.target}`)).toEqual([]);
    expect(all.filter((a) => a.from === 'flows' && a.to === 'above').map((a) => `${a.file} → ${a.target}`)).toEqual([]);
    const intoFlows = all.filter((a) => a.to === 'flows' && (a.from === 'core' || (MODULES.includes(a.from))));
    expect(intoFlows.map((a) => `${a.file} → ${a.target}`)).toEqual([]);
  });

  test('module → module arrows are the ones MAY_USE allows, and MAY_USE has no cycle', () => {
    expect(Object.keys(MAY_USE).sort()).toEqual([...MODULES].sort());
    expect(cyclesOf(MAY_USE)).toEqual([]);
    const unlisted = all.filter((a) => MODULES.includes(a.from) && MODULES.includes(a.to) && !(MAY_USE[a.from] ?? []).includes(a.to));
    expect(unlisted.map((a) => `${a.from} → ${a.to} (${a.file})`)).toEqual([]);
  });

  test('no domain file (tests included) imports the HTTP contract, tRPC or an HTTP server', () => {
    const transport = (spec: string) => TRANSPORT.some((t) => spec === t || spec.startsWith(`${t}/`));
    const found = sources(SRC, true).flatMap((file) => specifiersOf(file).filter(transport).map((spec) => `${path.relative(SRC, file)} → ${spec}`));
    expect(found).toEqual([]);
    const manifest = JSON.parse(readFileSync(path.join(SRC, '../package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(Object.keys(manifest.dependencies).filter(transport)).toEqual([]);
  });

  test('the cycle finder finds a cycle', () => {
    expect(cyclesOf({ payments: ['payouts'], payouts: ['orders'], orders: ['payments'], rates: [] })).toEqual([['payments', 'payouts', 'orders', 'payments']]);
    expect(cyclesOf({ orders: ['payouts', 'rates'], payouts: ['rates'], rates: [] })).toEqual([]);
  });
});

describe('the lint rule refuses what the structure forbids', () => {
  const eslint = new ESLint({ cwd: ROOT });
  const lint = async (code: string, file: string) => {
    const [result] = await eslint.lintText(code, { filePath: path.join(SRC, file) });
    return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
  };

  test('a deep import into another module', async () => {
    const messages = await lint("import { toListingBody } from '../../listings/listing.mapper.js';\nexport const x = toListingBody;\n", 'orders/commands/example.ts');
    expect(messages).toEqual([expect.stringContaining('through its entry only')]);
  }, 30_000);

  test('the same name through the module’s entry passes', async () => {
    expect(await lint("import { toListingBody } from '../../listings/index.js';\nexport const x = toListingBody;\n", 'orders/commands/example.ts')).toEqual([]);
  }, 30_000);

  test('core importing a module, even through its entry', async () => {
    const messages = await lint("import { findOrderFor } from '../orders/index.js';\nexport const x = findOrderFor;\n", 'core/example.ts');
    expect(messages).toEqual([expect.stringContaining('imports no module')]);
  }, 30_000);

  test('a module importing tRPC or the HTTP contract', async () => {
    const messages = await lint("import { TRPCError } from '@trpc/server';\nimport type { Problem } from '@hm/contract/problems';\nexport const x: [unknown, Problem?] = [TRPCError];\n", 'orders/commands/example.ts');
    expect(messages).toEqual([expect.stringContaining('knows no HTTP'), expect.stringContaining('knows no HTTP')]);
  }, 30_000);

  test('a flow reaching into a module’s files', async () => {
    const messages = await lint("import { priceOrder } from '../orders/pricing/price-order.js';\nexport const x = priceOrder;\n", 'flows/example.ts');
    expect(messages).toEqual([expect.stringContaining('A flow uses a module through its entry only')]);
    expect(await lint("import { priceOrder } from '../orders/index.js';\nexport const x = priceOrder;\n", 'flows/example.ts')).toEqual([]);
  }, 30_000);

  test('a module calling a flow', async () => {
    const messages = await lint("import { handlePaymentEvent } from '../flows/payment-events.js';\nexport const x = handlePaymentEvent;\n", 'payments/example.ts');
    expect(messages).toEqual([expect.stringContaining('does not use the flows')]);
  }, 30_000);
});
