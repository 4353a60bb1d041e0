import { parseTemplate } from '@hm/rest';
import { always, hasJsonBody, type Case, type Mutation } from './cases.js';
import { baseDraft, render, type FuzzContext, type Operation, type Req } from './operations.js';
import { fieldPaths, jsonWithRaw, type Json } from './schema-values.js';
import { wireBytes } from './transport.js';

/**
 * Byte-level requests over a real socket, for what an injected request would normalise or refuse
 * to build: invalid UTF-8 in the URL, headers and body, URLs and headers past the parser's limits,
 * duplicate and contradictory headers, broken framing and request lines.
 */

const MARK = 0x01; // a byte no rendered request contains: replaced by the mutation's bytes

function replaceMark(bytes: Buffer, insert: Buffer): Buffer {
  const i = bytes.indexOf(MARK);
  return i < 0 ? bytes : Buffer.concat([bytes.subarray(0, i), insert, bytes.subarray(i + 1)]);
}

/** The first line of the request, printable, for the failure table. */
const firstLine = (bytes: Buffer) => bytes.subarray(0, Math.min(bytes.indexOf('\r\n') < 0 ? 120 : bytes.indexOf('\r\n'), 120)).toString('latin1');

function raw(name: string, applies: (op: Operation) => boolean, build: (ctx: FuzzContext, req: Req, op: Operation) => { detail: string; bytes: Buffer }): Mutation {
  return {
    name,
    applies,
    make(ctx, op): Case {
      const req = { ...render(baseDraft(ctx, op)), socket: true };
      const { detail, bytes } = build(ctx, req, op);
      return { op: op.id, mutation: name, detail, requests: [{ ...req, url: firstLine(bytes), bytes }] };
    },
  };
}

/** `url` with a parameter value (path if any, else query) replaced by the mark byte. */
function markedUrl(req: Req, op: Operation): string {
  const pathParam = op.params.find((p) => p.in === 'path');
  if (pathParam) {
    const index = parseTemplate(op.template).segments.findIndex((s) => s.kind === 'param' && s.name === pathParam.name);
    const parts = req.url.split('?')[0]!.split('/');
    parts[index + 2] = '\u0001'; // +2: the empty part before the first slash, and the /v1 prefix
    return parts.join('/') + (req.url.includes('?') ? `?${req.url.split('?')[1]}` : '');
  }
  const name = op.params.find((p) => p.in === 'query')?.name ?? 'fuzz';
  return `${req.url}${req.url.includes('?') ? '&' : '?'}${name}=\u0001`;
}

const INVALID_UTF8 = [[0xff], [0xfe, 0xff], [0xc0, 0x80], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0x80, 0x80], [0xc3, 0x28]];

export const rawMutations: Mutation[] = [
  raw('raw:invalid-utf8-url', always, (ctx, req, op) => {
    const bytes = ctx.r.pick(INVALID_UTF8);
    return { detail: `URL holds bytes ${bytes.map((b) => b.toString(16)).join(' ')}`, bytes: replaceMark(wireBytes({ ...req, url: markedUrl(req, op) }), Buffer.from(bytes)) };
  }),
  raw('raw:long-url', always, (ctx, req) => {
    const n = ctx.r.pick([17_000, 70_000]);
    const url = `${req.url}${req.url.includes('?') ? '&' : '?'}fuzz=${'x'.repeat(n)}`;
    return { detail: `a URL of ${url.length} characters`, bytes: wireBytes({ ...req, url }) };
  }),
  raw('raw:huge-headers', always, (ctx, req) => {
    const many = ctx.r.chance(0.5);
    const headers = many ? Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`x-fuzz-${i}`, 'y'.repeat(200)])) : { 'x-fuzz': 'y'.repeat(ctx.r.pick([17_000, 70_000])) };
    return { detail: many ? '150 headers of 200 bytes' : 'one header over 16 KB', bytes: wireBytes({ ...req, headers: { ...req.headers, ...headers } }) };
  }),
  raw('raw:header-bytes', always, (ctx, req) => {
    const name = ctx.r.pick(['authorization', 'x-user-session', 'idempotency-key', 'x-fuzz', 'content-type']);
    const bytes = ctx.r.pick([[0x00], [0xff], [0xf0, 0x9f, 0x98, 0x80], [0x7f], [0xc0, 0x80], [0x0b]]);
    const value = String(req.headers[name] ?? 'x');
    const i = ctx.r.int(0, value.length);
    const headers = { ...req.headers, [name]: `${value.slice(0, i)}\u0001${value.slice(i)}` };
    return { detail: `${name} holds bytes ${bytes.map((b) => b.toString(16)).join(' ')}`, bytes: replaceMark(wireBytes({ ...req, headers }), Buffer.from(bytes)) };
  }),
  raw('raw:duplicate-headers', always, (ctx, req) => {
    const w = ctx.world;
    const [name, values] = ctx.r.pick<[string, string[]]>([
      ['authorization', [`Bearer ${w.secret}`, `Bearer ${w.foreign.secret}`]],
      ['authorization', [`Bearer ${w.publishable}`, `Bearer ${w.secret}`]],
      ['x-user-session', [w.alice.session, w.bob.session]],
      ['idempotency-key', [ctx.r.uuid(), ctx.r.uuid()]],
      ['content-type', ['application/json', 'text/plain']],
      ['host', ['a.example', 'b.example']],
    ]);
    return { detail: `${name} twice`, bytes: wireBytes({ ...req, headers: { ...req.headers, [name]: values } }) };
  }),
  raw('raw:framing', always, (ctx, req) => {
    const body = Buffer.isBuffer(req.payload) ? req.payload : Buffer.from(req.payload ?? '{}');
    const head = wireBytes({ ...req, payload: undefined }).toString('latin1').replace(/\r\n\r\n$/, '');
    const [detail, text] = ctx.r.pick<[string, string]>([
      ['content-length: abc', `${head}\r\ncontent-length: abc\r\n\r\n${body.toString('latin1')}`],
      ['content-length: -1', `${head}\r\ncontent-length: -1\r\n\r\n${body.toString('latin1')}`],
      ['two different content-lengths', `${head}\r\ncontent-length: ${body.length}\r\ncontent-length: ${body.length + 1}\r\n\r\n${body.toString('latin1')}`],
      ['chunked and a content-length', `${head}\r\ntransfer-encoding: chunked\r\ncontent-length: 3\r\n\r\n${body.length.toString(16)}\r\n${body.toString('latin1')}\r\n0\r\n\r\n`],
      ['a bad chunk size', `${head}\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n${body.toString('latin1')}\r\n0\r\n\r\n`],
      ['chunked, valid', `${head}\r\ntransfer-encoding: chunked\r\n\r\n${body.length.toString(16)}\r\n${body.toString('latin1')}\r\n0\r\n\r\n`],
      ['transfer-encoding: gzip', `${head}\r\ntransfer-encoding: gzip\r\n\r\n`],
      ['content-encoding: gzip on plain bytes', `${head}\r\ncontent-encoding: gzip\r\ncontent-length: ${body.length}\r\n\r\n${body.toString('latin1')}`],
      ['a content-length shorter than the body', `${head}\r\ncontent-length: 1\r\n\r\n${body.toString('latin1')}`],
    ]);
    return { detail, bytes: Buffer.from(text, 'latin1') };
  }),
  raw('raw:request-line', always, (ctx, req) => {
    const rest = wireBytes(req).toString('latin1').split('\r\n').slice(1).join('\r\n');
    const line = ctx.r.pick([
      `${req.method} ${req.url} HTTP/1.1 extra`,
      `FUZZ ${req.url} HTTP/1.1`,
      `${req.method.toLowerCase()} ${req.url} HTTP/1.1`,
      `${req.method} ${req.url} HTTP/9.9`,
      `${req.method} ${req.url} HTTP/1.0`,
      `${req.method}  ${req.url} HTTP/1.1`,
      `${req.method} ${req.url.slice(1)} HTTP/1.1`,
      `${req.method} http://localhost${req.url} HTTP/1.1`,
      `${req.method} * HTTP/1.1`,
      `${req.method} ${req.url}#fragment HTTP/1.1`,
      `${req.method} /v1/../v1${req.url.slice(3)} HTTP/1.1`,
      `${req.method} /v1/./${req.url.slice(4)} HTTP/1.1`,
      `${req.method} //v1${req.url.slice(3)} HTTP/1.1`,
      `${req.method} ${req.url.replace('/v1/', '/V1/')} HTTP/1.1`,
    ]);
    return { detail: line.slice(0, 80), bytes: Buffer.from(`${line}\r\n${rest}`, 'latin1') };
  }),
  raw('raw:invalid-utf8-body', hasJsonBody, (ctx, req, op) => {
    const fields = fieldPaths(op.body!.schema).filter((f) => f.schema.type === 'string');
    const path = fields.length ? ctx.r.pick(fields).path : ['fuzz'];
    const text = jsonWithRaw(JSON.parse(String(req.payload ?? '{}')) as Json, path, '"\u0001"');
    const bytes = ctx.r.pick(INVALID_UTF8);
    const body = replaceMark(Buffer.from(text), Buffer.from(bytes));
    return { detail: `body.${path.join('.')} holds bytes ${bytes.map((b) => b.toString(16)).join(' ')}`, bytes: wireBytes({ ...req, payload: body }) };
  }),
];
