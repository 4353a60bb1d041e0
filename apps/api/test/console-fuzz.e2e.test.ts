import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startHarness, tokenOf, type Harness } from './harness.js';
import { errorLogger, type ErrorLog, type FailureKind } from './fuzz/check.js';
import { buildWorld, type World } from './fuzz/fixture.js';
import { operationsOf, type FuzzContext, type Operation } from './fuzz/operations.js';
import { rng, seedFromEnv } from './fuzz/prng.js';
import { failureReport } from './fuzz/report.js';
import { runFuzz, type FuzzResult } from './fuzz/run.js';

/**
 * The mutation fuzz of fuzz.e2e.test.ts over the back office's own document
 * (/console/v1/openapi.json), as marketplace A's admin, in a world of its own (the console's writes
 * block users and move orders): every applicable mutation to every console operation once, then
 * random ones up to CONSOLE_FUZZ_COUNT requests (300 by default: the console is small, CI time too).
 * No 5xx, every 4xx a problem (a validation problem names where), every answer as the console
 * document says, and a JSON body the document refuses is never accepted.
 */
const COUNT = Number(process.env.CONSOLE_FUZZ_COUNT || 300);
const PASSWORD = 'correct horse battery';

let h: Harness;
let ops: Operation[];
let run: FuzzResult;
let seed: number;
const errorLog: ErrorLog = new Map();

async function operatorToken(email: string): Promise<string> {
  const { invitation_url } = await h.console.operators.create({ marketplace: 'fuzz', email, role: 'admin' });
  const res = await h.request({ method: 'POST', url: '/console/v1/invitations/accept', payload: { token: tokenOf(invitation_url), password: PASSWORD } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().token;
}

/** exceptions nothing caught while the server answered the fuzz (server and fuzzer share this process) */
const uncaught: string[] = [];
const onUncaught = (e: Error) => void uncaught.push(String(e));
process.on('uncaughtException', onUncaught);
beforeAll(async () => {
  h = await startHarness({ app: { logger: errorLogger(errorLog) } });
  const world: World = await buildWorld(h);
  const operators: FuzzContext['operators'] = { admin: await operatorToken('boss@fuzz.example'), spare: await operatorToken('leaving@fuzz.example'), email: 'boss@fuzz.example', password: PASSWORD, keys: [] as string[], webhooks: [], events: [], team: [] as string[] };
  for (let i = 0; i < 3; i++) operators!.keys.push((await h.console.keys.create({ marketplace: 'fuzz', kind: 'publishable' })).key.id);
  // webhook endpoints of A to change, rotate, replay to and delete (a receiver nobody listens on: deliveries are jobs the fuzz never runs), and events of A to replay
  for (let i = 0; i < 3; i++) operators!.webhooks.push((await h.console.webhooks.create({ marketplace: 'fuzz', url: 'http://127.0.0.1:9/hooks', events: '*' })).endpoint.id);
  operators!.events.push(...(await h.request({ method: 'GET', url: '/v1/events?limit=5', key: world.secret })).json().items.map((e: { id: string }) => e.id));
  expect(operators!.events.length).toBeGreaterThan(0);
  for (let i = 0; i < 3; i++) operators!.team.push((await h.console.operators.create({ marketplace: 'fuzz', email: `team${i}@fuzz.example`, role: 'viewer' })).operator.id);
  // a real cursor of each paged console list (a forged one needs the query that made it)
  for (const path of ['/console/v1/listings', '/console/v1/audit']) {
    const res = await h.request({ method: 'GET', url: `${path}?limit=1`, key: operators!.admin });
    expect(res.json().next_cursor, `${path} has a second page`).toBeTypeOf('string');
    world.cursors.push({ path, query: 'limit=1', cursor: res.json().next_cursor });
  }
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = h.app.server.address() as AddressInfo;
  ops = operationsOf((await h.app.inject({ method: 'GET', url: '/console/v1/openapi.json' })).json(), '/console/v1');
  seed = seedFromEnv();
  run = await runFuzz({ app: h.app, port, ctx: { r: rng(seed), world, seq: { n: 0 }, operators }, ops, minRequests: COUNT, concurrency: 2, errorLog, ...(process.env.FUZZ_CASES && { only: new Set(process.env.FUZZ_CASES.split(',').map(Number)) }) });
  const report = failureReport(run.failures, { seed, count: COUNT });
  console.log(`console fuzz: ${run.requests} requests over ${ops.length} operations in ${(run.ms / 1000).toFixed(1)} s, ${run.failures.length} failing${report ? `\n${report}` : ''}`);
}, 300_000);
afterAll(async () => {
  await h?.close();
  process.off('uncaughtException', onUncaught);
});

const failing = (...kinds: FailureKind[]) => run.failures.filter((f) => kinds.includes(f.kind));
const tableOf = (...kinds: FailureKind[]) => `\n${failureReport(failing(...kinds), { seed, count: COUNT })}`;

test('covers every operation of the console document', () => {
  expect(run.requests).toBeGreaterThanOrEqual(COUNT);
  expect([...run.byOperation.keys()].sort()).toEqual(ops.map((o) => o.id).sort());
  expect(ops.some((o) => o.auth === 'operator')).toBe(true);
});

test('no 5xx; every 4xx a complete problem (validation problems name their locations)', () => {
  expect(failing('5xx', 'no-response', 'not-a-problem', 'problem-members', 'problem-status').length, tableOf('5xx', 'no-response', 'not-a-problem', 'problem-members', 'problem-status')).toBe(0);
});

test('every answer (2xx too) has a status, content type and body the console document declares', () => {
  expect(failing('not-in-openapi').length, tableOf('not-in-openapi')).toBe(0);
});

test('a JSON body the console document refuses is never accepted', () => {
  expect(failing('accepted-invalid').length, tableOf('accepted-invalid')).toBe(0);
});

/** No exception escapes while the server answers (a broken framing with a working token once left an uncaught `aborted`: request-framing.e2e.test.ts). */
test('no exception escapes while the server answers', () => {
  expect(uncaught).toEqual([]);
});
