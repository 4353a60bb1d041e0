import type { FastifyInstance } from 'fastify';
import { allBodyMutations } from './body-mutations.js';
import type { Case, Mutation } from './cases.js';
import { checkResponse, type Failure } from './check.js';
import { headerMutations } from './header-mutations.js';
import type { FuzzContext, Operation } from './operations.js';
import { rawMutations } from './raw-mutations.js';
import { pathMutations, queryMutations } from './request-mutations.js';
import { send } from './transport.js';

export const MUTATIONS: Mutation[] = [...allBodyMutations, ...queryMutations, ...pathMutations, ...headerMutations, ...rawMutations];

/**
 * Cases in a fixed order from the seed: first every mutation that applies to every operation once,
 * then random (operation, mutation) pairs until `minRequests` requests. Generated one at a time as
 * they are sent, so large bodies do not pile up in memory.
 */
export function* cases(ctx: FuzzContext, ops: Operation[], minRequests: number): Generator<Case> {
  let requests = 0;
  const pairs = ops.flatMap((op) => MUTATIONS.filter((m) => m.applies(op)).map((m) => [op, m] as const));
  for (const [op, m] of pairs) {
    const c = m.make(ctx, op);
    requests += c.requests.length;
    yield c;
  }
  while (requests < minRequests) {
    const [op, m] = ctx.r.pick(pairs);
    const c = m.make(ctx, op);
    requests += c.requests.length;
    yield c;
  }
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
}

/** Sends every case (its requests in order; `concurrency` cases at a time) and checks each response. */
export async function runFuzz(opts: { app: FastifyInstance; port: number; ctx: FuzzContext; ops: Operation[]; minRequests: number; concurrency: number; only?: Set<number> }): Promise<FuzzResult> {
  const started = Date.now();
  const result: FuzzResult = { requests: 0, failures: [], byOperation: new Map(), mutationsPerOperation: new Map(), msPerMutation: new Map(), ms: 0 };
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
  const worker = async () => {
    for (let next = nextCase(); next; next = nextCase()) {
      const [caseIndex, c] = next;
      result.mutationsPerOperation.set(c.op, (result.mutationsPerOperation.get(c.op) ?? new Set()).add(c.mutation));
      const t0 = Date.now();
      for (const req of c.requests) {
        result.requests++;
        const counts = result.byOperation.get(c.op) ?? {};
        result.byOperation.set(c.op, counts);
        try {
          const t1 = Date.now();
          const res = await send(opts.app, opts.port, req);
          result.msPerMutation.set('(send)', (result.msPerMutation.get('(send)') ?? 0) + Date.now() - t1);
          if (verbose?.test(c.op)) console.log(`#${caseIndex} ${c.op} ${c.mutation} (${c.detail.slice(0, 60)}) → ${res.status} ${res.body.slice(0, 160)}`);
          counts[`${String(res.status)[0]}xx`] = (counts[`${String(res.status)[0]}xx`] ?? 0) + 1;
          const t2 = Date.now();
          const bad = await checkResponse(opts.app, byId.get(c.op), req, res);
          result.msPerMutation.set('(check)', (result.msPerMutation.get('(check)') ?? 0) + Date.now() - t2);
          if (bad) result.failures.push({ caseIndex, c, req, status: res.status, ...bad });
        } catch (e) {
          counts.error = (counts.error ?? 0) + 1;
          result.failures.push({ caseIndex, c, req, status: 0, kind: 'no-response', what: String((e as Error).message).slice(0, 120) });
        }
      }
      result.msPerMutation.set(c.mutation, (result.msPerMutation.get(c.mutation) ?? 0) + Date.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency }, worker));
  result.ms = Date.now() - started;
  return result;
}
