import { createRequire } from 'node:module';
import type { Collection } from './portman.js';

/** Runs a Portman collection with newman (portman.ts makes it) and sorts its failed assertions from the variations that fuzzed nothing. */
const require = createRequire(import.meta.url);

interface NewmanSummary {
  run: {
    executions: {
      item: { name: string; request: { url: { path?: string[] } } };
      request: { method: string; url: { toString(): string; path?: string[] }; body?: { raw?: string } };
      response?: { code: number; stream?: Buffer };
      requestError?: Error;
      assertions?: { assertion: string; error?: { message: string } }[];
    }[];
  };
}
const newman = require('newman') as { run(opts: Record<string, unknown>, done: (err: Error | null, summary: NewmanSummary) => void): void };

export interface ContractFailure {
  request: string;
  status: number;
  assertion: string;
  message: string;
}

/** Whether the document accepts a request's JSON body (undefined: no JSON body to judge). */
export type BodyCheck = (method: string, template: string, body: unknown) => Promise<boolean | undefined>;

/**
 * A fuzzing variation that sends a request the document accepts: Portman aimed at a field or query
 * parameter the example does not have (an optional one), so nothing was fuzzed. Its answer is then
 * not the 422 the variation expects; it is left to the contract requests and the fuzz.
 */
async function unfuzzed(e: NewmanSummary['run']['executions'][number], accepts: BodyCheck): Promise<boolean> {
  const aim = /\[fuzz\]\[(.*)\]$/.exec(e.item.name)?.[1]?.split(' ').at(-1);
  if (!aim) return false;
  const url = new URL(e.request.url.toString());
  // the item's path as generated (`:id`), not the one sent
  const template = `/${(e.item.request.url.path ?? []).map((s) => (s.startsWith(':') ? `{${s.slice(1)}}` : s)).join('/')}`;
  if (/^[a-z_]+$/.test(aim) && !url.searchParams.has(aim) && e.request.body?.raw === undefined) return true;
  if (e.request.body?.raw === undefined) return false;
  let body: unknown;
  try {
    body = JSON.parse(e.request.body.raw);
  } catch {
    return false;
  }
  return (await accepts(e.request.method, template, body)) === true;
}

/**
 * Runs the collection with newman against `baseUrl` (the Stripe webhook against `origin`); every
 * failed assertion, apart from variations that fuzzed nothing (counted in `unfuzzed`).
 */
export async function runNewman(collection: Collection, origin: string, accepts: BodyCheck): Promise<{ requests: number; assertions: number; unfuzzed: number; failures: ContractFailure[] }> {
  const baseUrl = `${origin}/v1`;
  const summary = await new Promise<NewmanSummary>((resolve, reject) =>
    newman.run(
      { collection, envVar: [{ key: 'baseUrl', value: baseUrl }, { key: 'origin', value: origin }], reporters: [], timeoutRequest: 30_000 },
      (err, s) => (err ? reject(err) : resolve(s)),
    ),
  );
  const failures: ContractFailure[] = [];
  let assertions = 0;
  let skipped = 0;
  for (const e of summary.run.executions) {
    const request = `${e.item.name}: ${e.request.method} ${e.request.url.toString().replace(baseUrl, '')}`;
    if (e.requestError) failures.push({ request, status: 0, assertion: 'response', message: e.requestError.message });
    const failed = (e.assertions ?? []).filter((a) => a.error);
    if (failed.length && (await unfuzzed(e, accepts))) {
      skipped++;
      continue;
    }
    assertions += e.assertions?.length ?? 0;
    for (const a of failed) failures.push({ request, status: e.response?.code ?? 0, assertion: a.assertion, message: `${a.error!.message.slice(0, 200)} ${e.response?.stream?.toString('utf8').slice(0, 200) ?? ''}` });
  }
  return { requests: summary.run.executions.length, assertions, unfuzzed: skipped, failures };
}
