import { always, excerpt, hasPath, hasQuery, mutation, type Mutation } from './cases.js';
import type { Draft, FuzzContext, Operation } from './operations.js';
import { boundaryValues, CONTROL_CHARS, validValue, wrongTypes, type Json } from './schema-values.js';

/** Mutations of the query string and path parameters: types, limits, encodings, forged cursors, foreign ids. */

const queryParams = (op: Operation) => op.params.filter((p) => p.in === 'query');
const pathParams = (op: Operation) => op.params.filter((p) => p.in === 'path');

function setQuery(d: Draft, name: string, values: (string | null)[]) {
  d.query = [...d.query.filter(([k]) => k !== name), ...values.map((v): [string, string | null] => [name, v])];
}

const asText = (v: Json) => (typeof v === 'string' ? v : JSON.stringify(v));
const enc = (v: Json) => encodeURIComponent(asText(v));

/** Keys a forger might put in a cursor: wrong types, wrong lengths, values Postgres cannot cast. */
function forgedKeys(ctx: FuzzContext): unknown[][] {
  const id = ctx.r.uuid();
  const date = '2026-11-22T10:00:00.000Z';
  return [
    ['not-a-date', 'not-a-uuid'],
    [date, 'not-a-uuid'],
    ['not-a-date', id],
    [date, '-'.repeat(36)],
    [date, 'f'.repeat(36)],
    ['a', '-'.repeat(36)],
    [1, 2],
    [1, date, 'x'],
    [3, 'not-a-date', id],
    [1e300, id],
    [2 ** 31, id],
    [2 ** 63, id],
    [-1, id],
    [1.5, id],
    ['99999999999999999999', id],
    ['1', id],
    [' 1', id],
    ['0', id],
    ['2026-02-30T00:00:00Z', id],
    ['+275760-09-13T00:00:00.000Z', id],
    ['Tue, 01 Jan 2030 00:00:00 GMT', id],
    ['\u0000', id],
    [date, `${id}\u0000`],
    [null, null],
    [{}, []],
    [true, false],
    [id],
    [],
    [id, id, id, id],
    ['x'.repeat(200), id],
  ];
}

/** Forged cursors are a known way in (the list): the random phase tries many more keys. */
const weighted = (weight: number, m: Mutation): Mutation => ({ ...m, weight });

const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

export const queryMutations: Mutation[] = [
  mutation('query:valid', hasQuery, () => 'as the schema says'),
  mutation('query:wrong-type', hasQuery, (ctx, d) => {
    const p = ctx.r.pick(queryParams(d.op));
    const schema = p.schema.type === 'array' ? (p.schema.items ?? {}) : p.schema;
    const numeric = ['abc', '1.5', '-1', '1e3', '0x10', 'Infinity', 'NaN', '٣', ' 5', '5 ', '+5', '1_000', '0'.repeat(400) + '1'];
    const value = schema.type === 'integer' ? ctx.r.pick(numeric) : schema.enum ? ctx.r.pick(['bogus', 'NEWEST', '', 'newest ']) : asText(ctx.r.pick(wrongTypes(schema)).value);
    setQuery(d, p.name, [encodeURIComponent(value)]);
    return `${p.name}=${excerpt(value, 30)}`;
  }),
  mutation('query:boundary', hasQuery, (ctx, d) => {
    const p = ctx.r.pick(queryParams(d.op));
    const b = ctx.r.pick(boundaryValues(ctx.r, p.schema, () => validValue(ctx.r, p.schema.items ?? {}, p.name, () => undefined)));
    setQuery(d, p.name, Array.isArray(b.value) ? b.value.map(enc) : [enc(b.value)]);
    return `${p.name} at ${b.kind}`;
  }),
  mutation('query:repeat', hasQuery, (ctx, d) => {
    const p = ctx.r.pick(queryParams(d.op));
    const v = enc(validValue(ctx.r, p.schema.items ?? p.schema, p.name, () => undefined) as Json);
    setQuery(d, p.name, Array.from({ length: ctx.r.pick([2, 3, 60]) }, () => v));
    return `${p.name} repeated`;
  }),
  mutation('query:unknown', always, (ctx, d) => {
    const name = ctx.r.pick(['fuzz', 'LIMIT', '__proto__', 'constructor', 'marketplace_id', 'offset', 'page', '']);
    d.query.push([name, '1']);
    return `unknown ${name || '(empty name)'}=1`;
  }),
  mutation('query:nul', hasQuery, (ctx, d) => {
    const p = ctx.r.pick(queryParams(d.op));
    const raw = ctx.r.pick(['%00', 'a%00', '%00b', encodeURIComponent(ctx.r.pick(CONTROL_CHARS))]);
    setQuery(d, p.name, [raw]);
    return `${p.name}=${raw}`;
  }),
  mutation('query:bad-percent', always, (ctx, d) => {
    const raw = ctx.r.pick(['%', '%FF', '%E0%A4%A', '%C0%80', '%ED%A0%80', '%uD800', '%%30', '%2', '%zz', '%F0%9F%98']);
    const params = queryParams(d.op);
    const name = params.length ? ctx.r.pick(params).name : 'fuzz';
    if (ctx.r.chance(0.2)) d.query.push([raw, 'x']);
    else setQuery(d, name, [raw]);
    return `${name}=${raw}`;
  }),
  mutation('query:huge', always, (ctx, d) => {
    const params = queryParams(d.op);
    const name = params.length ? ctx.r.pick(params).name : 'fuzz';
    const n = ctx.r.pick([2_000, 8_000, 15_000]);
    setQuery(d, name, [ctx.r.pick(['x', '%C3%A9', 'a+'])!.repeat(n / 2)]);
    return `${name} of ${n} characters`;
  }),
  mutation('query:array-syntax', hasQuery, (ctx, d) => {
    const p = ctx.r.pick(queryParams(d.op));
    const raw = ctx.r.pick([`${p.name}[]`, `${p.name}[0]`, `${p.name}[a][b]`, `${p.name}.x`, `${p.name}%5B%5D`]);
    d.query.push([raw, 'x']);
    return `${raw}=x`;
  }),
  mutation('query:empty', hasQuery, (ctx, d) => {
    const p = ctx.r.pick(queryParams(d.op));
    setQuery(d, p.name, [ctx.r.pick(['', null, '%20', '+'])]);
    return `${p.name} empty`;
  }),
  mutation('query:foreign-id', (op) => queryParams(op).some((p) => ['category', 'term', 'seller'].includes(p.name)), (ctx, d) => {
    const f = ctx.world.foreign;
    const [name, value] = ctx.r.pick(
      (
        [
          ['category', f.category],
          ['term', f.term],
          ['seller', f.user],
        ] as const
      ).filter(([n]) => d.op.params.some((p) => p.name === n)),
    );
    setQuery(d, name, [value]);
    return `${name} of the other marketplace`;
  }),
  weighted(6, mutation('query:forged-cursor', (op) => queryParams(op).some((p) => p.name === 'cursor'), (ctx, d) => {
    const real = ctx.world.cursors.filter((c) => c.path === `${d.op.base}${d.op.template}`);
    const base = ctx.r.pick(real.length ? real : ctx.world.cursors); // a list with no cursor of its own yet: another list's
    const { q } = JSON.parse(Buffer.from(base.cursor, 'base64url').toString()) as { q: string };
    const k = ctx.r.pick(forgedKeys(ctx));
    d.query = base.query.split('&').map((pair) => pair.split('=') as [string, string]);
    setQuery(d, 'cursor', [b64({ q, k })]);
    return `signed by nobody: k=${excerpt(JSON.stringify(k), 60)}`;
  })),
  mutation('query:garbage-cursor', (op) => queryParams(op).some((p) => p.name === 'cursor'), (ctx, d) => {
    const other = ctx.r.pick(ctx.world.cursors).cursor;
    const [what, value] = ctx.r.pick<[string, string]>([
      ['x', 'x'],
      ['not base64', '!!!!'],
      ['base64 of text', b64('not json')],
      ['base64 of a number', b64('1')],
      ['base64 of []', b64('[]')],
      ['no fingerprint', b64({ k: ['a', 'b'] })],
      ['k not an array', b64({ q: 'x', k: 'a' })],
      ['another query’s cursor', other],
      ['500 characters', 'A'.repeat(500)],
      ['501 characters', 'A'.repeat(501)],
      ['base64 of invalid UTF-8', Buffer.from([0xff, 0xfe, 0x7b]).toString('base64url')],
      ['base64 of deep JSON', b64(`{"q":${'['.repeat(100)}${']'.repeat(100)}}`)],
      ['standard base64 with padding', Buffer.from('{"q":"x","k":[]}').toString('base64')],
    ]);
    setQuery(d, 'cursor', [encodeURIComponent(value)]);
    return what;
  }),
];

/** Values that are not ids, or ids in the wrong place. */
function malformedIds(ctx: FuzzContext): string[] {
  const id = ctx.r.uuid();
  return ['abc', '1', '-1', '0', 'null', 'undefined', 'true', '{id}', ':id', 'ß', 'ünïcödé', '😀', `${id}x`, id.toUpperCase(), id.replaceAll('-', ''), '00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff', "1' or '1'='1", '${7*7}', `{${id}}`, `urn:uuid:${id}`, ' ', id.slice(0, 35)];
}

export const pathMutations: Mutation[] = [
  mutation('path:malformed', hasPath, (ctx, d) => {
    const p = ctx.r.pick(pathParams(d.op));
    const v = ctx.r.pick(malformedIds(ctx));
    d.pathValues[p.name] = encodeURIComponent(v);
    return `${p.name}=${excerpt(v, 40)}`;
  }),
  mutation('path:nul', hasPath, (ctx, d) => {
    const p = ctx.r.pick(pathParams(d.op));
    d.pathValues[p.name] = ctx.r.pick(['%00', `${d.pathValues[p.name]}%00`, `a%00b`, `%01`, '%7F']);
    return `${p.name}=${d.pathValues[p.name]!.slice(-12)}`;
  }),
  mutation('path:bad-percent', hasPath, (ctx, d) => {
    const p = ctx.r.pick(pathParams(d.op));
    d.pathValues[p.name] = ctx.r.pick(['%', '%FF', '%E0%A4%A', '%C0%80', '%ED%A0%80', '%uD800', '%%30', '%2', `${d.pathValues[p.name]}%`]);
    return `${p.name}=${d.pathValues[p.name]!.slice(-12)}`;
  }),
  mutation('path:long', hasPath, (ctx, d) => {
    const p = ctx.r.pick(pathParams(d.op));
    const limit = p.schema.maxLength ?? 36;
    const n = ctx.r.pick([limit, limit + 1, 1_000, 5_000, 15_000]);
    d.pathValues[p.name] = 'a'.repeat(n);
    return `${p.name} of ${n} characters`;
  }),
  mutation('path:foreign', hasPath, (ctx, d) => {
    const p = ctx.r.pick(pathParams(d.op));
    const f = ctx.world.foreign;
    d.pathValues[p.name] = d.op.template.startsWith('/media/') && p.name === 'id' ? ctx.world.pages.foreignMedia : p.name === 'image_id' || d.op.template.startsWith('/images/') ? f.image : p.name === 'id' ? f.listing : ctx.r.pick(['artek', 'brand']);
    return `${p.name} of the other marketplace`;
  }),
  mutation('path:other-user', (op) => op.template.startsWith('/me/listings/{id}'), (ctx, d) => {
    d.pathValues.id = ctx.r.pick(ctx.world.bob.listings);
    return 'id of another seller’s listing';
  }),
  mutation('path:missing', hasPath, (ctx, d) => {
    const p = ctx.r.pick(pathParams(d.op));
    d.pathValues[p.name] = p.schema.format === 'uuid' ? ctx.r.uuid() : 'no-such-thing';
    return `${p.name} of nothing`;
  }),
  mutation('path:slashes', hasPath, (ctx, d) => {
    const p = ctx.r.pick(pathParams(d.op));
    const v = d.pathValues[p.name]!;
    // no "." or ".." segment, not even as %2E: URL resolution (WHATWG, as the router uses) rightly makes those another route
    d.pathValues[p.name] = ctx.r.pick([`${v}/`, `${v}%2F..`, `%2F${v}`, `${v}//x`, '..%2F..%2Fopenapi.json', `${v};x=1`]);
    return `${p.name}=${excerpt(d.pathValues[p.name]!, 40)}`;
  }),
];
