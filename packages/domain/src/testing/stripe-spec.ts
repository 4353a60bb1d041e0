import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { StripeTestRequest } from './stripe-test-server.js';

/**
 * Test support: checks requests the Stripe adapter sent (as the local Stripe server recorded them)
 * against Stripe's own OpenAPI document, vendored in `stripe-spec/` (its README says which one): the
 * path matches one of the spec's path templates, the method exists there, and every parameter, at
 * every depth, is one the spec knows (as Stripe, which refuses unknown parameters at any depth), with its type and enum (form values are strings: numbers and
 * booleans coerced as Stripe reads them, `a[0]=x` read as an array) and the required ones present.
 * What is newer than the vendored spec goes in an explicit allowlist, one reason each.
 */
type Schema = Record<string, unknown>;
interface Operation {
  query?: Schema;
  body?: Schema;
}
interface VendoredSpec {
  source: { package: string; version: string; sha256: string };
  paths: Record<string, Record<string, Operation>>;
}

/** Something newer than the vendored spec: a whole operation (no `param`), or one parameter of it (`a.b` for `a[b]`). */
export interface StripeSpecAllowance {
  method: string;
  /** the spec's path template, e.g. `/v1/account_sessions` */
  path: string;
  param?: string;
  why: string;
}

/**
 * What the Stripe adapter sends that is newer than the vendored spec, one reason each: kept small
 * and explicit, so anything else the spec does not know fails.
 */
export const NEWER_THAN_VENDORED_SPEC: readonly StripeSpecAllowance[] = [
  { method: 'POST', path: '/v1/account_sessions', why: 'Account Sessions (Connect embedded components) came after the vendored spec' },
  { method: 'POST', path: '/v1/accounts', param: 'controller', why: "an account's controller (who pays fees, bears losses, which dashboard) came after the vendored spec" },
];

let loaded: { spec: VendoredSpec; templates: { template: string; pattern: RegExp; literal: number }[] } | undefined;
function vendored() {
  if (loaded) return loaded;
  const spec = JSON.parse(gunzipSync(readFileSync(new URL('./stripe-spec/stripe-requests.json.gz', import.meta.url))).toString('utf8')) as VendoredSpec;
  const templates = Object.keys(spec.paths).map((template) => ({
    template,
    pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}/]+\}/g, '[^/]+')}$`),
    literal: template.split('/').filter((s) => !s.startsWith('{')).length,
  }));
  // the most literal template first: `/v1/accounts/{account}/reject` before `/v1/accounts/{account}/{x}`
  templates.sort((a, b) => b.literal - a.literal);
  return (loaded = { spec, templates });
}

/** The vendored spec's source (package, version, sha256 of the file read). */
export const stripeSpecSource = () => vendored().spec.source;

/** The spec's path template a request path falls under, if any. */
export function stripePathTemplate(path: string): string | undefined {
  return vendored().templates.find((t) => t.pattern.test(path))?.template;
}

const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: 'array', validateFormats: false, verbose: true });
const compiled = new Map<string, ValidateFunction>();

/** Stripe's form encoding sends arrays as `a[0]=x&a[1]=y`: an object whose keys are all indexes is that array. */
function arrays(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(arrays);
  const entries = Object.entries(value);
  if (entries.length > 0 && entries.every(([k]) => /^\d+$/.test(k))) return entries.sort(([a], [b]) => Number(a) - Number(b)).map(([, v]) => arrays(v));
  return Object.fromEntries(entries.map(([k, v]) => [k, arrays(v)]));
}

/**
 * The spec marks only the top level `additionalProperties: false`, but Stripe answers "Received
 * unknown parameter" at any depth: an object schema that lists its properties and says nothing of
 * others is closed here too (free-form ones such as `metadata` say `additionalProperties: {…}`).
 */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (schema === null || typeof schema !== 'object') return schema;
  const out = Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, k === 'properties' ? Object.fromEntries(Object.entries(v as Schema).map(([p, s]) => [p, closed(s)])) : closed(v)]));
  if ('properties' in out && !('additionalProperties' in out)) out.additionalProperties = false;
  return out;
}

function without(params: Record<string, unknown>, dotted: string): Record<string, unknown> {
  const [head, ...rest] = dotted.split('.');
  if (!(head! in params)) return params;
  const { [head!]: inner, ...others } = params;
  if (rest.length === 0) return others;
  if (inner === null || typeof inner !== 'object') return params;
  return { ...others, [head!]: without(inner as Record<string, unknown>, rest.join('.')) };
}

const describe = (e: ErrorObject) => {
  const at = e.instancePath.split('/').filter(Boolean);
  const name = (parts: string[]) => (parts.length === 0 ? '(parameters)' : parts[0] + parts.slice(1).map((p) => `[${p}]`).join(''));
  if (e.keyword === 'additionalProperties') return `unknown parameter ${name([...at, (e.params as { additionalProperty: string }).additionalProperty])}`;
  if (e.keyword === 'required') return `missing required parameter ${name([...at, (e.params as { missingProperty: string }).missingProperty])}`;
  if (e.keyword === 'enum') return `${name(at)} ${JSON.stringify(e.data)} is not one of the spec's values`;
  return `${name(at)} ${e.message ?? e.keyword}`;
};

/**
 * Every way this request departs from Stripe's spec, in words (empty: it conforms). `allow` lists
 * what is newer than the vendored spec.
 */
export function stripeSpecProblems(request: Pick<StripeTestRequest, 'method' | 'path' | 'params'>, allow: readonly StripeSpecAllowance[] = NEWER_THAN_VENDORED_SPEC): string[] {
  const { spec } = vendored();
  const what = `${request.method} ${request.path}`;
  const template = stripePathTemplate(request.path);
  const allowed = allow.filter((a) => a.method === request.method && (a.path === template || a.path === request.path));
  if (allowed.some((a) => a.param === undefined)) return [];
  if (template === undefined) return [`${what}: no such path in Stripe's spec`];
  const method = request.method.toLowerCase();
  const operation = spec.paths[template]![method];
  if (operation === undefined) return [`${what}: ${request.method} is not an operation on ${template} in Stripe's spec`];
  const schema = method === 'post' ? operation.body : operation.query;
  let params = request.params;
  for (const a of allowed) params = without(params, a.param!);
  if (schema === undefined) return Object.keys(params).length === 0 ? [] : [`${what}: takes no parameters in Stripe's spec, got ${Object.keys(params).join(', ')}`];
  const key = `${method} ${template}`;
  let validate = compiled.get(key);
  if (validate === undefined) compiled.set(key, (validate = ajv.compile(closed(schema) as Schema)));
  const data = arrays(params);
  if (validate(data)) return [];
  // anyOf reports every branch's failure: keep the leaf problems, one line each
  const errors = (validate.errors ?? []).filter((e) => e.keyword !== 'anyOf');
  return [...new Set(errors.map((e) => `${what}: ${describe(e)}`))];
}

/** Every problem of every request (each once), with the allowlist of what is newer than the vendored spec: `expect(…).toEqual([])`. */
export const stripeRequestProblems = (requests: readonly Pick<StripeTestRequest, 'method' | 'path' | 'params'>[]): string[] => [...new Set(requests.flatMap((r) => stripeSpecProblems(r)))];
