import type { LightMyRequestResponse } from 'fastify';
import { parseTemplate } from '@hm/rest';

/**
 * The ownership matrix's machinery, shared by /v1 (ownership-matrix.e2e.test.ts) and the back office's
 * /console/v1 (console-ownership-matrix.e2e.test.ts): every operation of a published document with a
 * path parameter is called on objects of marketplace A by each caller the surface names, and every
 * answer is compared with what that caller must get. Generated from the document's paths: a new
 * operation is covered at once; a new path prefix fails until it gets a fixture.
 */
export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
export const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

export interface Fixture<W> {
  /** the value of this path parameter: an object of marketplace A (of its user A, on /v1) */
  value: (w: W) => string;
  /** another user of the same marketplace may act on it (and gets what its owner gets), and why */
  public?: string;
}
export interface Auth {
  key?: string;
  session?: string;
}
export interface Cell {
  caller: string;
  auth: Auth;
  expected: (status: number) => boolean;
  label: string;
  /** marketplace B's caller: where SAME_AS_NEVER_EXISTING compares with an id that never existed */
  foreign?: boolean;
}
/** One operation of the document, as the surface's callers see it. */
export interface Operation {
  method: string;
  op: Json;
  doc: Json;
  /** the fixture's `public` reason, if any of its path parameters' fixtures has one */
  isPublic?: string;
}
export interface Surface<W> {
  /** the URL prefix of the document's paths */
  base: string;
  /** the test file that keeps the fixtures (named in failures) */
  file: string;
  fixtures: Record<string, Fixture<W>>;
  /** required query parameters, by name */
  query: Record<string, (w: W) => string>;
  /** operations that answer an id nobody owns as they answer any id, and why */
  sameAsNeverExisting?: Record<string, string>;
  /** the callers of one operation, and what each must get */
  cells(o: Operation): Cell[];
  /** the fixture's owner, who reads it first (GETs): so the 404s are not "nothing there" */
  owner(o: Operation): Auth;
}
export type Send = (o: { method: string; url: string; key?: string; session?: string; body?: unknown; contentType?: string }) => Promise<LightMyRequestResponse>;
export const ok = (status: number) => status >= 200 && status < 300;

/** Runs the matrix over the document's operations: every cell that answered otherwise (none: the gate holds), and how many cells ran. */
export async function ownershipMatrix<W extends { photo?: unknown }>(doc: Json, w: W, surface: Surface<W>, send: Send): Promise<{ failures: string[]; cells: number }> {
  const failures: string[] = [];
  let cellCount = 0;
  for (const [template, item] of Object.entries(doc.paths as Json)) {
    const parsed = parseTemplate(template);
    if (!parsed.params.length) continue;
    for (const [method, op] of Object.entries(item as Json).filter(([m]) => METHODS.includes(m))) {
      const where = `${method.toUpperCase()} ${template}`;
      const values: Record<string, string> = {};
      let isPublic: string | undefined;
      let missing = false;
      for (const [i, segment] of parsed.segments.entries()) {
        if (segment.kind !== 'param') continue;
        // the fixture's key: the template up to this parameter, earlier parameters as `{}`
        const prefix = `/${parsed.segments.slice(0, i + 1).map((s, j) => (s.kind === 'static' ? s.text : j === i ? `{${s.name}}` : '{}')).join('/')}`;
        const fixture = surface.fixtures[prefix];
        if (!fixture) {
          failures.push(`${where}: no fixture for path parameter \`${segment.name}\`: add FIXTURES['${prefix}'] (an object of marketplace A) to ${surface.file}`);
          missing = true;
          break;
        }
        isPublic ??= fixture.public;
        values[segment.name] = fixture.value(w);
      }
      if (missing) continue;
      let url = parsed.fill(values);
      const required = ((op.parameters ?? []) as Json[]).filter((p) => p.in === 'query' && p.required).map((p) => p.name as string);
      const unknownQuery = required.filter((name) => !surface.query[name]);
      if (unknownQuery.length) {
        failures.push(`${where}: no value for required query parameter(s) ${unknownQuery.join(', ')}: add them to QUERY in ${surface.file}`);
        continue;
      }
      if (required.length) url += `?${new URLSearchParams(required.map((name): [string, string] => [name, surface.query[name]!(w)])).toString()}`;
      url = `${surface.base}${url}`;

      const operation: Operation = { method, op, doc, ...(isPublic !== undefined && { isPublic }) };
      const content = op.requestBody?.content ?? {};
      const body = content['application/json'] ? { body: content['application/json'].example ?? {} } : Object.keys(content).length ? { body: w.photo, contentType: Object.keys(content)[0] } : {};
      const cells = surface.cells(operation);
      // the fixture is real: its owner reads it (so the 404s below are not "nothing there"); writes are not repeated as the owner
      if (method === 'get') {
        const res = await send({ method: 'GET', url, ...surface.owner(operation) });
        if (!ok(res.statusCode)) failures.push(`${where} as its owner: ${res.statusCode}, expected 2xx: the fixture must be an object of marketplace A (${url}) ${res.body.slice(0, 120)}`);
      }
      const same = surface.sameAsNeverExisting?.[where];
      const foreign = cells.find((c) => c.foreign);
      if (same && foreign) {
        const never = url.replace(encodeURIComponent(values[parsed.params[0]!]!), crypto.randomUUID());
        const missing = await send({ method: method.toUpperCase(), url: never, ...foreign.auth, ...body });
        foreign.expected = (s) => s === missing.statusCode;
        foreign.label = `${missing.statusCode}, as for an id that never existed (${same})`;
      }
      for (const { caller, auth, expected, label } of cells) {
        const res = await send({ method: method.toUpperCase(), url, ...auth, ...body });
        cellCount++;
        if (!expected(res.statusCode)) failures.push(`${where} as ${caller}: ${res.statusCode}, expected ${label} (${url}) ${res.body.slice(0, 120)}`);
      }
    }
  }
  return { failures, cells: cellCount };
}
