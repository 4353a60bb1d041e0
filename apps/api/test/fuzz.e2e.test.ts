import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startHarness, type Harness } from './harness.js';
import { errorLogger, type ErrorLog, type FailureKind } from './fuzz/check.js';
import { buildWorld } from './fuzz/fixture.js';
import { operationsOf, type Operation } from './fuzz/operations.js';
import { DEFAULT_SEED, rng, seedFromEnv } from './fuzz/prng.js';
import { failureReport } from './fuzz/report.js';
import { MUTATIONS, runFuzz, type FuzzResult } from './fuzz/run.js';
import { runProperty, SCHEMA_VALID, type PropertyResult } from './fuzz/property.js';
import { contractCollection, contractFixes, requestsOf, runNewman } from './contract/portman.js';
import { requestBodyValidator } from './openapi-validator.js';
import type { World } from './fuzz/fixture.js';

/**
 * A fuzz run over every operation of the published OpenAPI document (test helpers and the photo
 * upload included): valid requests built from the schemas with real ids, then mutated — wrong
 * types, limits ±1, huge values, NUL and control characters, lone surrogates and invalid UTF-8,
 * JSON nested 3 000 and 6 000 deep, huge arrays, unknown fields, bad content types, forged cursors,
 * other tenants' ids, malformed path ids, broken percent-encoding, long URLs and headers,
 * Idempotency-Key variants, every kind of key and session. Deterministic from its seed:
 * FUZZ_SEED=<n> runs another sequence, FUZZ_COUNT=<n> sends more (or fewer) requests,
 * FUZZ_CASES=<#,#> re-sends only the cases a failure table names, FUZZ_VERBOSE=<regex> prints every
 * exchange of the operations it matches, FUZZ_CONCURRENCY=<n> sets how many cases run at once (4).
 * Beyond no 5xx and problems for every 4xx, every /v1 answer must be documented, and a JSON body
 * the document's schema refuses must not be accepted (no silent coercion).
 *
 * In the same world then: the fuzz as a fast-check property (FUZZ_PROPERTY_RUNS cases, default
 * 1 000: json-schema-faker requests and the mutations; FUZZ_PROPERTY_PATH replays a counterexample),
 * and the contract tests and fuzzing variations Portman generates from the document, run by newman
 * (contract/portman.ts). `npm run fuzz` runs all of it deeper and writes FUZZ_REPORT.
 */
const COUNT = Number(process.env.FUZZ_COUNT || 5000);
/** cases of the fast-check property (FUZZ_PROPERTY_RUNS), after the fuzz in the same world */
const PROPERTY_RUNS = Number(process.env.FUZZ_PROPERTY_RUNS || 1000);
const ONLY = process.env.FUZZ_CASES ? new Set(process.env.FUZZ_CASES.split(',').map(Number)) : undefined;

let h: Harness;
let ops: Operation[];
let run: FuzzResult;
let seed: number;
let world: World;
let fixes: Awaited<ReturnType<typeof contractFixes>>;
let port: number;
const errorLog: ErrorLog = new Map();

beforeAll(async () => {
  const started = Date.now();
  h = await startHarness({ app: { logger: errorLogger(errorLog) } });
  world = await buildWorld(h);
  // the contract run's own targets, made before the fuzz uses the world (and queues its emails)
  fixes = await contractFixes(h, world);
  console.log(`fuzz: world built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  ({ port } = h.app.server.address() as AddressInfo);
  ops = operationsOf((await h.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json());
  seed = seedFromEnv();
  console.log(`fuzz: seed ${seed} (FUZZ_SEED), ≥ ${COUNT} requests (FUZZ_COUNT) over ${ops.length} operations`);
  run = await runFuzz({ app: h.app, port, ctx: { r: rng(seed), world, seq: { n: 0 } }, ops, minRequests: COUNT, concurrency: Number(process.env.FUZZ_CONCURRENCY || 4), errorLog, only: ONLY });
  // the classes here; each failing test below prints its failures per operation, with a request to re-send
  const report = failureReport(run.failures, { seed, count: COUNT }, { perOperation: false });
  const slowest = [...run.msPerMutation].sort((a, b) => b[1] - a[1]).slice(0, 8);
  figures.push({ part: 'mutation fuzz', operations: run.byOperation.size, requests: run.requests, failures: run.failures.length, note: `${MUTATIONS.length} mutations, every applicable one to every operation` });
  console.log(`fuzz: ${run.requests} requests in ${(run.ms / 1000).toFixed(1)} s, ${(run.cpuMs / 1000).toFixed(1)} s of CPU (summed over workers: ${slowest.map(([m, ms]) => `${m} ${(ms / 1000).toFixed(1)} s`).join(', ')}), ${run.failures.length} failing${report ? `\n${report}` : ''}`);
}, 300_000);
afterAll(async () => {
  await h?.close();
  summarise();
});

/** What each part sent and found, for the closing line and FUZZ_REPORT=<file> (`npm run fuzz` writes docs/fuzz-latest.md). */
const figures: { part: string; operations: number; requests: number; failures: number; note: string }[] = [];

function summarise() {
  if (!figures.length) return;
  const total = figures.reduce((n, f) => n + f.requests, 0);
  const failures = figures.reduce((n, f) => n + f.failures, 0);
  const operations = Math.max(...figures.map((f) => f.operations));
  console.log(`fuzz summary: ${operations} operations covered, ${total} requests sent, ${failures} failures (seed ${seed})`);
  if (!process.env.FUZZ_REPORT) return;
  const lines = [
    '# Last fuzzing run',
    '',
    `Written by \`npm run fuzz\` on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC (seed ${seed}; FUZZ_SEED=<n> runs another sequence).`,
    '',
    '| part | operations covered | requests sent | failures | notes |',
    '| --- | ---: | ---: | ---: | --- |',
    ...figures.map((f) => `| ${f.part} | ${f.operations} | ${f.requests} | ${f.failures} | ${f.note} |`),
    `| **all** | **${operations}** | **${total}** | **${failures}** | |`,
    '',
  ];
  writeFileSync(process.env.FUZZ_REPORT, lines.join('\n'));
}

const failing = (...kinds: FailureKind[]) => run.failures.filter((f) => kinds.includes(f.kind));
const tableOf = (...kinds: FailureKind[]) => `\n${failureReport(failing(...kinds), { seed, count: COUNT })}`;

describe.skipIf(ONLY)('coverage', () => {
  test(`sends at least ${COUNT} requests, every applicable mutation to every operation of the document`, () => {
    expect(run.requests).toBeGreaterThanOrEqual(COUNT);
    expect([...run.byOperation.keys()].sort()).toEqual(ops.map((o) => o.id).sort());
    for (const op of ops) {
      const expected = MUTATIONS.filter((m) => m.applies(op)).map((m) => m.name);
      expect([...run.mutationsPerOperation.get(op.id)!].sort(), op.id).toEqual(expected.sort());
    }
  });

  test('authorised requests reach the handlers: every operation answers 2xx at least once', () => {
    const never = ops.filter((op) => !run.byOperation.get(op.id)?.['2xx']).map((op) => `${op.id} ${JSON.stringify(run.byOperation.get(op.id))}`);
    expect(never).toEqual([]);
  });
});

describe('the fuzz contract', () => {
  test('no response is a 5xx, and every request gets a complete response', () => {
    expect(failing('5xx', 'no-response').length, tableOf('5xx', 'no-response')).toBe(0);
  });

  test('every 4xx is application/problem+json with type, title, status, detail and code, status equal to the HTTP status', () => {
    expect(failing('not-a-problem', 'problem-members', 'problem-status').length, tableOf('not-a-problem', 'problem-members', 'problem-status')).toBe(0);
  });

  test('every /v1 response (2xx too) has a status, content type and body the OpenAPI document declares', () => {
    expect(failing('not-in-openapi').length, tableOf('not-in-openapi')).toBe(0);
  });

  test('a JSON body the document refuses is never accepted: 4xx, and a 422 names the refused field', () => {
    expect(failing('accepted-invalid').length, tableOf('accepted-invalid')).toBe(0);
  });
});

describe.skipIf(ONLY)('the fuzz as a fast-check property (json-schema-faker requests and the mutations above)', () => {
  let property: PropertyResult;
  beforeAll(async () => {
    property = await runProperty({ app: h.app, port, world, ops, runs: PROPERTY_RUNS, seed, path: process.env.FUZZ_PROPERTY_PATH || undefined, errorLog });
    const covered = [...property.covered.values()].reduce((n, s) => n + s.size, 0);
    figures.push({ part: 'fast-check property', operations: property.covered.size, requests: property.requests, failures: property.failure ? 1 : 0, note: `${property.runs} cases, ${covered} operation × input pairs (json-schema-faker or a mutation)` });
    console.log(`fuzz property: ${property.runs} cases, ${property.requests} requests in ${(property.ms / 1000).toFixed(1)} s over ${property.covered.size} operations (${covered} operation × input pairs; ${property.schemaValid.accepted} of ${property.schemaValid.sent} json-schema-faker requests answered 2xx)${property.failure ? `\n${property.failure.report}` : ''}`);
  }, 300_000);

  test('no case breaks the fuzz contract (no 5xx, documented answers, problems listing locations); a failure prints its shrunk case and replay path', () => {
    expect(property.failure?.report).toBeUndefined();
    expect(property.runs).toBeGreaterThanOrEqual(PROPERTY_RUNS);
  });

  test('every operation gets requests generated from its schemas by json-schema-faker', () => {
    const without = ops.filter((op) => !property.covered.get(op.id)?.has(SCHEMA_VALID)).map((op) => op.id);
    expect(without).toEqual([]);
  });
});

describe.skipIf(ONLY)('contract tests and fuzzing variations generated by Portman, run by newman', () => {
  let contract: Awaited<ReturnType<typeof runNewman>>;
  beforeAll(async () => {
    const started = Date.now();
    const doc = (await h.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    // a fixed seed whatever FUZZ_SEED says: the contract requests are the same on every run
    const collection = await contractCollection(doc, world, ops, fixes, DEFAULT_SEED);
    const made = Date.now();
    contract = await runNewman(collection, `http://127.0.0.1:${port}`, async (method, template, body) => {
      const validate = await requestBodyValidator(h.app, method, template);
      return validate ? Boolean(validate(body)) : undefined;
    });
    const covered = new Set(requestsOf(collection).map((i) => i.name.replace(/\[.*$/, ''))).size;
    figures.push({ part: 'Portman + newman contract', operations: covered, requests: contract.requests, failures: contract.failures.length, note: `${contract.assertions} assertions; ${contract.unfuzzed} variations fuzzed a field the example lacks` });
    const table = contract.failures.map((f) => `  ${f.request} → ${f.status}: ${f.assertion}: ${f.message}`).join('\n');
    console.log(`contract: collection in ${((made - started) / 1000).toFixed(1)} s, newman ${contract.requests} requests (${contract.unfuzzed} variations that fuzzed nothing), ${contract.assertions} assertions in ${((Date.now() - made) / 1000).toFixed(1)} s, ${contract.failures.length} failing${table ? `\n${table}` : ''}`);
  }, 300_000);

  test('every generated assertion passes', () => {
    expect(contract.failures).toEqual([]);
    expect(contract.requests).toBeGreaterThan(ops.length);
  });
});
