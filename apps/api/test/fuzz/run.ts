import type { FastifyInstance } from 'fastify';
import { allBodyMutations } from './body-mutations.js';
import type { Case, Mutation } from './cases.js';
import { checkResponse, type ErrorLog, type Failure } from './check.js';
import { headerMutations } from './header-mutations.js';
import { SPARE_SESSION, type FuzzContext, type Operation, type Req } from './operations.js';
import type { World } from './fixture.js';
import { rawMutations } from './raw-mutations.js';
import { pathMutations, queryMutations } from './request-mutations.js';
import { send, type Res } from './transport.js';

export const MUTATIONS: Mutation[] = [...allBodyMutations, ...queryMutations, ...pathMutations, ...headerMutations, ...rawMutations];

/**
 * Cases in a fixed order from the seed: first every mutation that applies to every operation once
 * (shuffled), then random (operation, mutation) pairs until `minRequests` requests. Generated one
 * at a time as they are sent, so large bodies do not pile up in memory.
 */
export function* cases(ctx: FuzzContext, ops: Operation[], minRequests: number): Generator<Case> {
  let requests = 0;
  const pairs = ops.flatMap((op) => MUTATIONS.filter((m) => m.applies(op)).map((m) => [op, m] as const));
  // shuffled: requests to one operation in a row would wait on each other (same rows, password hashing)
  const firstPass = pairs.map((p) => [ctx.r.next(), p] as const).sort((a, b) => a[0] - b[0]).map(([, p]) => p);
  for (const [op, m] of firstPass) {
    const c = m.make(ctx, op);
    requests += c.requests.length;
    yield c;
  }
  const weighted = pairs.flatMap((p) => Array.from({ length: p[1].weight ?? 1 }, () => p));
  while (requests < minRequests) {
    const [op, m] = ctx.r.pick(weighted);
    const c = m.make(ctx, op);
    requests += c.requests.length;
    yield c;
  }
}

/**
 * Signing out ends the session it is sent with, so a case that signs out gets a spare session when
 * it is sent (the same one for all its requests: a replay must come from the same session), and
 * puts it back unless a request succeeded (then the session is gone).
 */
export function withSpareSession(world: World, requests: Req[]): { requests: Req[]; done(statuses: number[]): void } {
  const uses = (req: Req) => Object.values(req.headers).includes(SPARE_SESSION) || Boolean(req.bytes?.toString('latin1').includes(SPARE_SESSION));
  if (!requests.some(uses)) return { requests, done: () => {} };
  const session = world.spareSessions.shift() ?? world.endedSession;
  const put = (req: Req): Req => ({
    ...req,
    headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, v === SPARE_SESSION ? session : v])),
    ...(req.bytes ? { bytes: Buffer.from(req.bytes.toString('latin1').replace(SPARE_SESSION, session), 'latin1') } : {}),
  });
  return {
    requests: requests.map(put),
    done: (statuses) => {
      if (session !== world.endedSession && !statuses.some((s) => s >= 200 && s < 300)) world.spareSessions.unshift(session);
    },
  };
}

export interface FuzzResult {
  requests: number;
  failures: Failure[];
  /** responses per operation and status class, e.g. `GET /listings` → { '2xx': 120, '4xx': 300 } */
  byOperation: Map<string, Record<string, number>>;
  mutationsPerOperation: Map<string, Set<string>>;
  /** time spent per mutation (to keep the run within its budget) */
  msPerMutation: Map<string, number>;
  ms: number;
  /** CPU time of this process (fuzzer and server) during the run: far below `ms` means a busy machine */
  cpuMs: number;
}

/** Sends every case (its requests in order; `concurrency` cases at a time) and checks each response. */
export async function runFuzz(opts: {
  app: FastifyInstance;
  port: number;
  ctx: FuzzContext;
  ops: Operation[];
  minRequests: number;
  concurrency: number;
  errorLog: ErrorLog;
  only?: Set<number>;
}): Promise<FuzzResult> {
  const started = Date.now();
  const cpu = process.cpuUsage();
  const result: FuzzResult = { requests: 0, failures: [], byOperation: new Map(), mutationsPerOperation: new Map(), msPerMutation: new Map(), ms: 0, cpuMs: 0 };
  const source = cases(opts.ctx, opts.ops, opts.minRequests);
  const byId = new Map(opts.ops.map((op) => [op.id, op]));
  let index = -1;
  const nextCase = (): [number, Case] | undefined => {
    for (;;) {
      const n = source.next();
      if (n.done) return undefined;
      index++;
      if (!opts.only || opts.only.has(index)) return [index, n.value];
    }
  };
  // FUZZ_VERBOSE=<regex of operations>: every request and response of those operations
  const verbose = process.env.FUZZ_VERBOSE ? new RegExp(process.env.FUZZ_VERBOSE) : undefined;
  const spend = (label: string, since: number) => result.msPerMutation.set(label, (result.msPerMutation.get(label) ?? 0) + Date.now() - since);
  const count = (op: string, bucket: string) => {
    const counts = result.byOperation.get(op) ?? {};
    counts[bucket] = (counts[bucket] ?? 0) + 1;
    result.byOperation.set(op, counts);
  };
  /** sends one request of a case and records what is wrong with the answer; returns its status (0: none) */
  const exchange = async (caseIndex: number, c: Case, req: Req): Promise<number> => {
    result.requests++;
    let res: Res;
    const t0 = Date.now();
    try {
      res = await send(opts.app, opts.port, req);
    } catch (e) {
      count(c.op, 'error');
      result.failures.push({ caseIndex, c, req, status: 0, kind: 'no-response', what: String((e as Error).message).slice(0, 120) });
      return 0;
    }
    spend('(send)', t0);
    count(c.op, `${String(res.status)[0]}xx`);
    if (verbose?.test(c.op)) console.log(`#${caseIndex} ${c.op} ${c.mutation} (${c.detail.slice(0, 60)}) → ${res.status} ${res.body.slice(0, 160)}`);
    const t1 = Date.now();
    const bad = await checkResponse(opts.app, byId.get(c.op), req, res, opts.errorLog);
    spend('(check)', t1);
    if (bad) result.failures.push({ caseIndex, c, req, status: res.status, ...bad });
    return res.status;
  };
  const worker = async () => {
    for (let next = nextCase(); next; next = nextCase()) {
      const [caseIndex, c] = next;
      result.mutationsPerOperation.set(c.op, (result.mutationsPerOperation.get(c.op) ?? new Set()).add(c.mutation));
      const t0 = Date.now();
      const { requests, done } = withSpareSession(opts.ctx.world, c.requests);
      const statuses: number[] = [];
      for (const req of requests) statuses.push(await exchange(caseIndex, c, req));
      done(statuses);
      spend(c.mutation, t0);
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency }, worker));
  result.ms = Date.now() - started;
  const used = process.cpuUsage(cpu);
  result.cpuMs = (used.user + used.system) / 1000;
  return result;
}
