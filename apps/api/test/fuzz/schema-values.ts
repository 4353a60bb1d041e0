import type { Rng } from './prng.js';

/** The part of JSON Schema 2020-12 the published document uses for parameters and bodies. */
export interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  enum?: unknown[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  anyOf?: Schema[];
  oneOf?: Schema[];
  default?: unknown;
}

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** A realistic value for a named field (real ids, known emails …), or undefined to use the schema. */
export type Hint = (name: string, schema: Schema) => Json | undefined;

const WORDS = ['chair', 'café', 'oak', 'lamp', 'Ekström', 'table', 'röd', 'stool', 'bench', 'desk'];

export function typeOf(schema: Schema): string {
  const t = schema.type ?? schema.anyOf?.[0]?.type ?? schema.oneOf?.[0]?.type;
  if (Array.isArray(t)) return t.find((x) => x !== 'null') ?? 'string';
  if (t) return t;
  if (schema.properties) return 'object';
  return 'any';
}

/** A value the schema accepts (hints first), keeping sizes small so most requests reach handlers. */
export function validValue(r: Rng, schema: Schema, name: string, hint: Hint): Json {
  const hinted = hint(name, schema);
  if (hinted !== undefined) return hinted;
  if (schema.enum?.length) return r.pick(schema.enum) as Json;
  switch (typeOf(schema)) {
    case 'object': {
      const out: Record<string, Json> = {};
      for (const [key, sub] of Object.entries(schema.properties ?? {})) {
        if (schema.required?.includes(key) || r.chance(0.5)) out[key] = validValue(r, sub, key, hint);
      }
      return out;
    }
    case 'array': {
      const n = Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? 3, r.int(0, 3)));
      return Array.from({ length: n }, () => validValue(r, schema.items ?? {}, name, hint));
    }
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? 0;
      return r.int(min, Math.min(schema.maximum ?? min + 1000, min + 100_000));
    }
    case 'boolean':
      return r.chance(0.5);
    case 'string':
      return validString(r, schema);
    default:
      return r.pick(WORDS);
  }
}

function validString(r: Rng, schema: Schema): string {
  if (schema.format === 'uuid') return r.uuid();
  if (schema.format === 'date-time') return new Date(Date.UTC(2026, r.int(0, 11), r.int(1, 28), r.int(0, 23))).toISOString();
  if (schema.format === 'email') return `fuzz.${r.int(0, 1e9)}@example.com`;
  if (schema.pattern === '^[A-Z]{2}$') return 'SE';
  let s = r.pick(WORDS);
  while (s.length < (schema.minLength ?? 0)) s += ` ${r.pick(WORDS)}`;
  return s.slice(0, schema.maxLength ?? s.length);
}

/** Every property path of an object schema (depth ≤ 3) with its schema: what a mutation can aim at. */
export function fieldPaths(schema: Schema | undefined, prefix: string[] = []): { path: string[]; schema: Schema }[] {
  if (!schema || typeOf(schema) !== 'object' || prefix.length >= 3) return [];
  return Object.entries(schema.properties ?? {}).flatMap(([key, sub]) => [{ path: [...prefix, key], schema: sub }, ...fieldPaths(sub, [...prefix, key])]);
}

/** A copy of `body` with the value at `path` replaced (parents created as needed). */
export function setAt(body: Json, path: string[], value: Json): Json {
  const root = structuredClone(body ?? {}) as Record<string, Json>;
  let at: Record<string, Json> = root;
  for (const key of path.slice(0, -1)) {
    if (!at[key] || typeof at[key] !== 'object' || Array.isArray(at[key])) at[key] = {};
    at = at[key] as Record<string, Json>;
  }
  at[path[path.length - 1]!] = value;
  return root;
}

/** Values of every other JSON type than the schema's, plus the classic coercion traps. */
export function wrongTypes(schema: Schema): { kind: string; value: Json }[] {
  const all: { kind: string; value: Json; types: string[] }[] = [
    { kind: 'string', value: 'fuzz', types: ['string'] },
    { kind: 'numeric-string', value: '100', types: ['string'] },
    { kind: 'empty-string', value: '', types: ['string'] },
    { kind: 'integer', value: 42, types: ['integer', 'number'] },
    { kind: 'float', value: 1.5, types: ['number'] },
    { kind: 'negative', value: -1, types: [] },
    { kind: 'huge-number', value: 1e308, types: [] },
    { kind: 'unsafe-integer', value: 2 ** 53 + 2, types: [] },
    { kind: 'boolean', value: true, types: ['boolean'] },
    { kind: 'null', value: null, types: ['null'] },
    { kind: 'array', value: ['fuzz', 1], types: ['array'] },
    { kind: 'empty-array', value: [], types: ['array'] },
    { kind: 'object', value: { fuzz: 1 }, types: ['object'] },
    { kind: 'empty-object', value: {}, types: ['object'] },
  ];
  const own = typeOf(schema);
  return all.filter((w) => !w.types.includes(own)).map(({ kind, value }) => ({ kind, value }));
}

/** Values at and just past the schema's limits (lengths, numbers, item counts). */
export function boundaryValues(r: Rng, schema: Schema, valid: () => Json): { kind: string; value: Json }[] {
  const out: { kind: string; value: Json }[] = [];
  const str = (n: number) => 'x'.repeat(Math.max(0, n));
  if (schema.maxLength !== undefined) out.push({ kind: 'maxLength', value: str(schema.maxLength) }, { kind: 'maxLength+1', value: str(schema.maxLength + 1) });
  if (schema.minLength !== undefined && schema.minLength > 0) out.push({ kind: 'minLength-1', value: str(schema.minLength - 1) });
  if (schema.maximum !== undefined) out.push({ kind: 'maximum', value: schema.maximum }, { kind: 'maximum+1', value: schema.maximum + 1 });
  if (schema.minimum !== undefined) out.push({ kind: 'minimum', value: schema.minimum }, { kind: 'minimum-1', value: schema.minimum - 1 });
  if (schema.maxItems !== undefined) {
    out.push({ kind: 'maxItems', value: Array.from({ length: schema.maxItems }, valid) }, { kind: 'maxItems+1', value: Array.from({ length: schema.maxItems + 1 }, valid) });
  }
  if (schema.minItems !== undefined && schema.minItems > 0) out.push({ kind: 'minItems-1', value: Array.from({ length: schema.minItems - 1 }, valid) });
  if (out.length === 0) out.push({ kind: 'long-string', value: str(r.pick([255, 256, 1024, 65_536])) });
  return out;
}

/** Characters that databases, parsers and loggers trip over. */
export const CONTROL_CHARS = ['\u0000', '\u0001', '\u0008', '\u000b', '\u001b', '\u007f', '\u0085', '\u2028', '\u2029', '\ufeff', '\u200b', '\u202e', '\ufffe', '\uffff'];

/** `depth` nested arrays or objects around a leaf, as JSON text (built iteratively: the generator must not overflow itself). */
export function nestedJson(depth: number, shape: 'array' | 'object'): string {
  return shape === 'array' ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** JSON text of `body` with the value at `path` written as raw text: for values JSON.stringify cannot write. */
export function jsonWithRaw(body: Json, path: string[], raw: string): string {
  const marker = '\u0001fuzz-raw\u0001';
  return JSON.stringify(setAt(body, path, marker)).replace(JSON.stringify(marker), raw);
}
