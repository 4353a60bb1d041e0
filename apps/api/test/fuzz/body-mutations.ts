import { excerpt, hasJsonBody, mutation, type Mutation } from './cases.js';
import { MUTATING, type Draft, type FuzzContext } from './operations.js';
import { boundaryValues, CONTROL_CHARS, fieldPaths, jsonWithRaw, nestedJson, setAt, typeOf, validValue, wrongTypes, type Json, type Schema } from './schema-values.js';

/** Mutations of JSON request bodies: types, limits, characters, encodings, nesting, sizes, syntax. */

/** A field of the body to aim at (strings preferred for character mutations) and its schema. */
function field(ctx: FuzzContext, d: Draft, want?: string): { path: string[]; schema: Schema } {
  const all = fieldPaths(d.op.body!.schema);
  const matching = want ? all.filter((f) => typeOf(f.schema) === want) : all;
  if (matching.length) return ctx.r.pick(matching);
  if (all.length) return ctx.r.pick(all);
  return { path: ['fuzz'], schema: { type: 'string' } }; // an empty schema ({}): the field is unknown
}

const body = (d: Draft): Json => d.body ?? {};
const at = (path: string[]) => `body.${path.join('.')}`;

/** A valid string with `inject` spliced in at a random place. */
function spliced(ctx: FuzzContext, d: Draft, path: string[], inject: string): string {
  const current = path.reduce<Json>((v, k) => (v && typeof v === 'object' && !Array.isArray(v) ? (v[k] ?? null) : null), body(d));
  const base = typeof current === 'string' && current.length ? current : 'fuzz value';
  const i = ctx.r.int(0, base.length);
  return base.slice(0, i) + inject + base.slice(i);
}

export const bodyMutations: Mutation[] = [
  mutation('body:valid', hasJsonBody, () => 'as the schema says'),
  mutation(
    'body:missing-required',
    (op) => (op.body?.schema?.required?.length ?? 0) > 0,
    (ctx, d) => {
      const name = ctx.r.pick(d.op.body!.schema!.required!);
      delete (d.body as Record<string, Json>)[name];
      return `without ${name}`;
    },
  ),
  mutation('body:wrong-type', hasJsonBody, (ctx, d) => {
    const f = field(ctx, d);
    const wrong = ctx.r.pick(wrongTypes(f.schema));
    d.body = setAt(body(d), f.path, wrong.value);
    return `${at(f.path)} (${typeOf(f.schema)}) = ${wrong.kind} ${excerpt(JSON.stringify(wrong.value), 30)}`;
  }),
  mutation('body:boundary', hasJsonBody, (ctx, d) => {
    const f = field(ctx, d);
    const hint = () => validValue(ctx.r, f.schema.items ?? {}, f.path.at(-1)!, () => undefined);
    const b = ctx.r.pick(boundaryValues(ctx.r, f.schema, hint));
    d.body = setAt(body(d), f.path, b.value);
    return `${at(f.path)} at ${b.kind}`;
  }),
  mutation('body:huge-string', hasJsonBody, (ctx, d) => {
    const f = field(ctx, d, 'string');
    const unit = ctx.r.pick(['x', 'é', '😀', ' ']);
    const n = ctx.r.pick([100_000, 300_000]);
    d.body = setAt(body(d), f.path, unit.repeat(n / unit.length));
    return `${at(f.path)} = ${n} × ${JSON.stringify(unit)}`;
  }),
  mutation('body:nul', hasJsonBody, (ctx, d) => {
    if (ctx.r.chance(0.2)) {
      d.body = { ...(body(d) as Record<string, Json>), 'ti\u0000tle': 'x' };
      return 'a property name with NUL';
    }
    const f = field(ctx, d, 'string');
    d.body = setAt(body(d), f.path, spliced(ctx, d, f.path, '\u0000'));
    return `${at(f.path)} contains \\u0000`;
  }),
  mutation('body:control-char', hasJsonBody, (ctx, d) => {
    const f = field(ctx, d, 'string');
    const c = ctx.r.pick(CONTROL_CHARS.slice(1));
    d.body = setAt(body(d), f.path, spliced(ctx, d, f.path, c));
    return `${at(f.path)} contains ${excerpt(c)}`;
  }),
  mutation('body:lone-surrogate', hasJsonBody, (ctx, d) => {
    const f = field(ctx, d, 'string');
    const raw = ctx.r.pick(['"a\\ud800b"', '"\\udfff"', '"\\ud83d"', '"x\\udc00\\ud800"']);
    d.payload = jsonWithRaw(body(d), f.path, raw);
    return `${at(f.path)} = ${raw}`;
  }),
  mutation('body:invalid-utf8', hasJsonBody, (ctx, d) => {
    const f = field(ctx, d, 'string');
    const bytes = ctx.r.pick([[0xff], [0xfe, 0xff], [0xc0, 0x80], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0x80]]);
    const [before, after] = jsonWithRaw(body(d), f.path, '"\u0002"').split('\u0002');
    d.payload = Buffer.concat([Buffer.from(before!), Buffer.from(bytes), Buffer.from(after!)]);
    return `${at(f.path)} holds bytes ${bytes.map((b) => b.toString(16)).join(' ')}`;
  }),
  mutation('body:nested', hasJsonBody, (ctx, d) => {
    const f = ctx.r.chance(0.4) && d.op.body!.schema!.properties?.attributes ? { path: ['attributes', 'deep'] } : field(ctx, d);
    const depth = ctx.r.pick([3000, 6000]);
    const shape = ctx.r.pick(['array', 'object'] as const);
    d.payload = jsonWithRaw(body(d), f.path, nestedJson(depth, shape));
    return `${at(f.path)} = ${depth} nested ${shape}s`;
  }),
  mutation('body:nested-body', hasJsonBody, (ctx, d) => {
    const depth = ctx.r.pick([3000, 6000]);
    const shape = ctx.r.pick(['array', 'object'] as const);
    d.payload = nestedJson(depth, shape);
    return `the body is ${depth} nested ${shape}s`;
  }),
  mutation('body:huge-array', hasJsonBody, (ctx, d) => {
    const f = field(ctx, d, 'array');
    const n = ctx.r.pick([10_000, 50_000]);
    const item = ctx.r.pick<Json>([ctx.r.uuid(), 1, {}, 'x']);
    d.body = setAt(body(d), f.path, Array.from({ length: n }, () => item));
    return `${at(f.path)} = ${n} × ${JSON.stringify(item)}`;
  }),
  mutation('body:unknown-field', hasJsonBody, (ctx, d) => {
    const name = ctx.r.pick(['fuzz', 'id', 'status', 'marketplace_id', 'seller_id', 'created_at', 'is_admin']);
    const f = ctx.r.chance(0.5) ? [name] : [...field(ctx, d, 'object').path, name];
    d.body = setAt(body(d), f, ctx.r.pick<Json>(['x', 1, true, null]));
    return `extra ${at(f)}`;
  }),
  mutation('body:proto-keys', hasJsonBody, (ctx, d) => {
    const json = JSON.stringify(body(d));
    const extra = ctx.r.pick(['"__proto__":{"polluted":1}', '"constructor":{"prototype":{"polluted":1}}', '"__proto__":null', '"toString":1', '"hasOwnProperty":"x"']);
    d.payload = json === '{}' ? `{${extra}}` : `{${extra},${json.slice(1)}`;
    return `with ${extra}`;
  }),
  mutation('body:not-object', hasJsonBody, (ctx, d) => {
    d.payload = ctx.r.pick(['[]', '[{}]', '"text"', '1', '-1.5', 'null', 'true', 'false', '""', '{}']);
    return `the body is ${d.payload}`;
  }),
  mutation('body:invalid-json', hasJsonBody, (ctx, d) => {
    d.payload = ctx.r.pick(['{', '{"a":1,}', "{'a':1}", '{"a":NaN}', '{"a":01}', '{"a":1}{"b":2}', '{"a":"open', 'undefined', '{"a":"\\x41"}', '\u0000', '{"a":1}\u0000', '\ufeff{}', ' ', '{"a":.5}']);
    return `the body is ${excerpt(d.payload)}`;
  }),
  mutation('body:odd-number', hasJsonBody, (ctx, d) => {
    const f = field(ctx, d, 'integer');
    const raw = ctx.r.pick(['1e999', '-1e999', '-0', '1E2', '100.0', '1e-400', '0.0000001', '123456789012345678901234567890', '9007199254740993']);
    d.payload = jsonWithRaw(body(d), f.path, raw);
    return `${at(f.path)} = ${raw}`;
  }),
  mutation('body:duplicate-keys', hasJsonBody, (ctx, d) => {
    const f = field(ctx, d);
    const json = JSON.stringify(setAt(body(d), f.path, null));
    d.payload = `{${JSON.stringify(f.path[0])}:"dup",${json.slice(1)}`;
    return `${f.path[0]} twice`;
  }),
  mutation('body:empty', hasJsonBody, (ctx, d) => {
    d.payload = '';
    if (ctx.r.chance(0.5)) delete d.headers['content-type'];
    return `no body (content-type ${d.headers['content-type'] ?? 'none'})`;
  }),
  mutation('body:too-large', (op) => hasJsonBody(op) || (op.body === undefined && MUTATING.has(op.method)), (ctx, d) => {
    d.payload = JSON.stringify({ ...(body(d) as object), title: 'x'.repeat(ctx.r.pick([1_048_577, 1_200_000])) });
    d.headers['content-type'] = 'application/json';
    return `${d.payload.length} bytes`;
  }),
  mutation('body:foreign-id', (op) => ['category_id', 'terms', 'image_ids'].some((k) => op.body?.schema?.properties?.[k]), (ctx, d) => {
    const f = ctx.world.foreign;
    const choices: [string, Json][] = [
      ['category_id', f.category],
      ['terms', { brand: f.term }],
      ['image_ids', [f.image]],
    ];
    const [name, value] = ctx.r.pick(choices.filter(([k]) => d.op.body!.schema!.properties![k]));
    d.body = setAt(body(d), [name], value);
    return `${name} of the other marketplace`;
  }),
  mutation('content-type', (op) => hasJsonBody(op) || (op.body === undefined && MUTATING.has(op.method)), (ctx, d) => {
    const type = ctx.r.pick([
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data',
      'multipart/form-data; boundary=x',
      'application/xml',
      'application/json; charset=utf-16',
      'application/json; charset=latin1',
      'application/JSON',
      'application/vnd.fuzz+json',
      'application/json-patch+json',
      'application/merge-patch+json',
      'image/jpeg',
      '*/*',
      'application/json, text/plain',
      'fuzz',
      '',
    ]);
    d.headers['content-type'] = type;
    d.payload ??= JSON.stringify(body(d));
    return `content-type: ${type}`;
  }),
  mutation('body:unexpected', (op) => op.body === undefined && MUTATING.has(op.method), (ctx, d) => {
    const payload = ctx.r.pick(['{"fuzz":1}', '{', nestedJson(6000, 'array'), '[]', '"\u0000"', 'x'.repeat(5000)]);
    d.payload = payload;
    d.headers['content-type'] = ctx.r.pick(['application/json', 'text/plain']);
    return `a body on a bodiless operation: ${excerpt(payload, 30)}`;
  }),
];

/** The photo upload takes raw bytes: mutate the bytes and their declared type. */
export const uploadMutations: Mutation[] = [
  mutation(
    'upload:bytes',
    (op) => op.body !== undefined && !hasJsonBody(op),
    (ctx, d) => {
      const photo = ctx.world.photo;
      const variants: [string, Buffer][] = [
        ['the photo', photo],
        ['empty', Buffer.alloc(0)],
        ['1 KB of zeros', Buffer.alloc(1024)],
        ['a truncated JPEG', photo.subarray(0, 200)],
        ['a JPEG header only', photo.subarray(0, 4)],
        ['JSON', Buffer.from('{"image":"x"}')],
        ['NUL bytes and text', Buffer.from('\u0000\u0000GIF89a\u0000')],
        ['invalid UTF-8', Buffer.from([0xff, 0xfe, 0xc0, 0x80])],
      ];
      const [what, bytes] = ctx.r.pick(variants);
      d.payload = bytes;
      d.headers['content-type'] = ctx.r.pick([...d.op.body!.types, 'application/json', 'text/plain', 'image/gif', 'multipart/form-data']);
      return `${what} as ${d.headers['content-type']}`;
    },
  ),
  mutation(
    'upload:too-large',
    (op) => op.body !== undefined && !hasJsonBody(op),
    (_ctx, d) => {
      d.payload = Buffer.alloc(21 * 1024 * 1024, 0xff);
      delete d.headers['idempotency-key']; // a key makes today's server fingerprint 21 MB byte by byte (tested elsewhere, ~13 s)
      return '21 MiB';
    },
  ),
];

export const allBodyMutations: Mutation[] = [...bodyMutations, ...uploadMutations];
