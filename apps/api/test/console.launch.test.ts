import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, inject, test } from 'vitest';
import { createTestDatabase } from '@hm/db/testing';
import { build, isFresh } from '../src/console/launch.js';
import { API_DIR, runConsole } from './cli.js';

/** `npm run console` runs a cached esbuild bundle of the console through plain Node (no tsx). */
let env: Record<string, string>;
beforeAll(async () => {
  env = { DATABASE_URL: await createTestDatabase(inject('adminDatabaseUrl')), API_MODE: 'test' };
});

const launch = (args: string[]) => runConsole(args, env);

describe('console launcher', () => {
  test('the bundle is rebuilt only when a source changed (or went missing) after the build', async () => {
    const out = mkdtempSync(path.join(tmpdir(), 'hm-console-build-'));
    expect(isFresh(out)).toBe(false);
    await build(out);
    expect(isFresh(out)).toBe(true);
    const recordFile = path.join(out, 'build.json');
    const record = JSON.parse(readFileSync(recordFile, 'utf8')) as { startedAt: number; files: string[] };
    expect(record.files).toContain(path.join(API_DIR, 'src/console/cli.ts'));
    expect(record.files.some((f) => f.endsWith(path.join('packages', 'domain', 'src', 'core', 'errors.ts')))).toBe(true);
    // as if every source had been edited after the build started
    writeFileSync(recordFile, JSON.stringify({ ...record, startedAt: 0 }));
    expect(isFresh(out)).toBe(false);
    // as if a source had been deleted
    writeFileSync(recordFile, JSON.stringify({ ...record, files: [...record.files, path.join(out, 'gone.ts')] }));
    expect(isFresh(out)).toBe(false);
  }, 60_000);

  test('runs commands like the TypeScript entry: JSON on stdout, problems on stderr with exit 1', async () => {
    const list = await launch(['marketplace', 'list']);
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual({ items: [] });
    const missing = await launch(['marketplace', 'get', '--marketplace', 'nowhere']);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe('');
    expect(JSON.parse(missing.stderr)).toMatchObject({ status: 404, code: 'not_found' });
  }, 60_000);

  test('--help after a command lists its flags with their descriptions, on stdout', async () => {
    const help = await launch(['listings', 'offer', '--help']);
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/^listings offer — Offer the seller a price/);
    expect(help.stdout).toMatch(/--amount <number> +Offered price in minor units/);
    expect(help.stdout).toMatch(/--schedule <json> +\(optional\) Price drops as JSON/);
    const all = await launch(['--help']);
    expect(all.code).toBe(0);
    expect(all.stdout).toContain('  listings set-commission --id <uuid> --percent <number>|default\n');
  }, 60_000);
});
