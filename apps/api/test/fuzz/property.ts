import fc from 'fast-check';
import { generate, type JsonSchema } from 'json-schema-faker';
import type { FastifyInstance } from 'fastify';
import type { Case } from './cases.js';
import { checkResponse, type ErrorLog, type Failure } from './check.js';
import type { World } from './fixture.js';
import { baseDraft, encodeValue, hintFor, render, type FuzzContext, type Operation } from './operations.js';
import { rng } from './prng.js';
import { MUTATIONS, withSpareSession } from './run.js';
import type { Hint, Json, Schema } from './schema-values.js';
import { send } from './transport.js';

/**
 * The fuzz as a fast-check property: an arbitrary (operation, what to send, seed) triple becomes one
 * case — a request json-schema-faker generates from the document's schemas (the world's real ids
 * and values wherever a field or parameter has a hint), or one of the fuzz's mutations — and every
 * answer must pass the fuzz contract (`checkResponse`). Seeded (FUZZ_SEED); a failure is shrunk to
 * the smallest triple and printed with the fast-check seed and path that replay it
 * (FUZZ_PROPERTY_PATH=<path> with the same FUZZ_SEED runs only that counterexample).
 */
export const SCHEMA_VALID = 'schema:valid';

/** The schema with every hinted field replaced by `const` (the hint's value): real ids where the schema only says `uuid`. */
function withHints(schema: Schema, name: string, hint: Hint): JsonSchema {
  const hinted = hint(name, schema);
  if (hinted !== undefined) return { const: hinted };
  if (!schema.properties) return schema as JsonSchema;
  return { ...schema, properties: Object.fromEntries(Object.entries(schema.properties).map(([k, s]) => [k, withHints(s, k, hint)])) } as JsonSchema;
}

/** A request built from the document's schemas by json-schema-faker, on the same draft (path, key, session) the mutations start from. */
export async function schemaCase(ctx: FuzzContext, op: Operation, seed: number): Promise<Case> {
  const d = baseDraft(ctx, op);
  const hint = hintFor(ctx, op);
  // short strings and arrays, so requests reach handlers rather than limits (the mutations test those)
  const options = { seed, optionalsProbability: 0.5, maxLength: 40, maxItems: 3, maxDepth: 6 };
  const made: string[] = [];
  d.query = [];
  for (const p of op.params.filter((x) => x.in === 'query')) {
    if (!p.required && !ctx.r.chance(0.5)) continue;
    const value = (await generate(withHints(p.schema, p.name, hint), options)) as Json;
    for (const v of Array.isArray(value) ? value : [value]) d.query.push([p.name, encodeValue(v)]);
    made.push(`query.${p.name}`);
  }
  if (op.body?.schema) {
    d.body = (await generate(withHints(op.body.schema, 'body', hint), options)) as Json;
    // hashing a password costs tens of milliseconds on a busy machine (as in `baseDraft`)
    if (op.template === '/users' && ctx.r.chance(0.8)) delete (d.body as Record<string, Json>).password;
    made.push('body');
  }
  return { op: op.id, mutation: SCHEMA_VALID, detail: `json-schema-faker seed ${seed}: ${made.join(', ') || 'no input'}`, requests: [render(d)] };
}

export interface PropertyResult {
  runs: number;
  requests: number;
  /** what each operation was sent (SCHEMA_VALID or a mutation name) */
  covered: Map<string, Set<string>>;
  /** json-schema-faker requests sent, and how many a handler accepted (2xx) */
  schemaValid: { sent: number; accepted: number };
  /** the shrunk counterexample, with the fast-check report (seed, path) that replays it */
  failure?: { failure: Failure; report: string };
  ms: number;
}

class ContractBroken extends Error {
  constructor(readonly failure: Failure) {
    super(`${failure.c.op} ${failure.c.mutation} → ${failure.status}: ${failure.kind} ${failure.what} (${failure.req.method} ${failure.req.url.slice(0, 120)}; ${failure.c.detail.slice(0, 80)})`);
  }
}

export async function runProperty(opts: { app: FastifyInstance; port: number; world: World; ops: Operation[]; runs: number; seed: number; path?: string; errorLog: ErrorLog }): Promise<PropertyResult> {
  const started = Date.now();
  const byName = new Map(MUTATIONS.map((m) => [m.name, m]));
  const result: PropertyResult = { runs: 0, requests: 0, covered: new Map(), schemaValid: { sent: 0, accepted: 0 }, ms: 0 };
  const seq = { n: 100_000 }; // unique emails apart from the first run's
  const arbitrary = fc
    .constantFrom(...opts.ops)
    .chain((op) =>
      fc.record({
        op: fc.constant(op),
        // half generated from the schemas, half one of the mutations that apply
        input: fc.oneof(fc.constant(SCHEMA_VALID), fc.constantFrom(...MUTATIONS.filter((m) => m.applies(op)).map((m) => m.name))),
        seed: fc.nat(),
      }),
    );
  const property = fc.asyncProperty(arbitrary, async ({ op, input: what, seed }) => {
    result.runs++;
    result.covered.set(op.id, (result.covered.get(op.id) ?? new Set()).add(what));
    const ctx: FuzzContext = { r: rng(seed), world: opts.world, seq };
    const c = what === SCHEMA_VALID ? await schemaCase(ctx, op, seed) : byName.get(what)!.make(ctx, op);
    const { requests, done } = withSpareSession(opts.world, c.requests);
    const statuses: number[] = [];
    try {
      for (const req of requests) {
        result.requests++;
        const res = await send(opts.app, opts.port, req);
        statuses.push(res.status);
        if (what === SCHEMA_VALID) {
          result.schemaValid.sent++;
          if (res.status < 300) result.schemaValid.accepted++;
        }
        const bad = await checkResponse(opts.app, op, req, res, opts.errorLog);
        if (bad) throw new ContractBroken({ caseIndex: -1, c, req, status: res.status, ...bad });
      }
    } finally {
      done(statuses);
    }
  });
  const details = await fc.check(property, { seed: opts.seed, numRuns: opts.runs, ...(opts.path ? { path: opts.path } : {}) });
  if (details.failed) {
    const error = details.errorInstance;
    const failure = error instanceof ContractBroken ? error.failure : undefined;
    const report = `${fc.defaultReportMessage(details)}\nreplay: FUZZ_SEED=${opts.seed} FUZZ_PROPERTY_PATH=${details.counterexamplePath ?? ''}`;
    result.failure = { failure: failure ?? ({ kind: 'no-response', what: String((error as Error | undefined)?.message ?? error) } as Failure), report };
  }
  result.ms = Date.now() - started;
  return result;
}
