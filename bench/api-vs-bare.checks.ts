/**
 * The checks `npm run bench` makes before measuring (bench/api-vs-bare.ts): the API and the bare
 * server answer the same JSON, and send the same SQL (Postgres' statement log, log_statement=all).
 */
import { isDeepStrictEqual } from 'node:util';
import type { Statement } from './api-vs-bare.server.js';
import { isReplay, ROUTES, type Role } from './api-vs-bare.routes.js';

export const ROLES = ['api', 'bare'] as const satisfies Role[];
type Servers = Record<(typeof ROLES)[number], { url: string }>;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Postgres statement log lines (log_statement=all), collected only while `capturing`. */
const statementLog = { capturing: false, partial: '', lines: [] as Statement[], inStatement: false };
export function onPostgresLog(text: string) {
  if (!statementLog.capturing) return;
  const all = (statementLog.partial + text).split('\n');
  statementLog.partial = all.pop() ?? '';
  for (const line of all) {
    const m = /LOG:\s+(?:statement|execute [^:]*):\s+(.*)$/.exec(line);
    const last = statementLog.lines.at(-1);
    // a statement of several lines: the log's continuation lines start with a tab
    if (!m && statementLog.inStatement && last && line.startsWith('\t')) {
      last.text += `\n${line.slice(1)}`;
      continue;
    }
    statementLog.inStatement = Boolean(m);
    if (m) statementLog.lines.push({ text: m[1]!.trim() });
    // an extended-protocol statement's values follow it: `DETAIL:  Parameters: $1 = 'a', $2 = NULL`
    const p = /DETAIL:\s+parameters:\s+(.*)$/i.exec(line);
    if (p && last) last.values = [...p[1]!.matchAll(/\$\d+ = (NULL|'((?:[^']|'')*)')/g)].map((v) => (v[1] === 'NULL' ? null : v[2]!.replaceAll("''", "'")));
  }
}

async function getJson(url: string, headers: Record<string, string>) {
  const res = await fetch(url, { headers });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`GET ${url} → ${res.status}: ${text.slice(0, 500)}`);
  return { text, json: JSON.parse(text) as unknown, contentType: res.headers.get('content-type') };
}

/** The headers a route is called with. */
export type HeadersOf = (route: (typeof ROUTES)[number]) => Record<string, string>;

export async function checkSameResponses(servers: Servers, headersOf: HeadersOf, paths: Record<string, string>) {
  const out: Record<string, unknown> = {};
  for (const route of ROUTES) {
    const headers = headersOf(route);
    const api = await getJson(servers.api.url + paths[route.name], headers);
    if (isReplay(route)) {
      // the bare side replays the API's statements (after captureStatements) and maps nothing: no JSON to compare
      out[route.name] = { replayed: true, bytes: { api: Buffer.byteLength(api.text) }, items: (api.json as { items: unknown[] }).items.length };
      continue;
    }
    const bare = await getJson(servers.bare.url + paths[route.name], headers);
    if (!isDeepStrictEqual(api.json, bare.json)) {
      throw new Error(`${route.path}: bare response differs from the API's\napi:  ${api.text}\nbare: ${bare.text}`);
    }
    let at = 0;
    while (at < api.text.length && api.text[at] === bare.text[at]) at++;
    out[route.name] = {
      deepEqual: true,
      identicalBytes: api.text === bare.text,
      // same JSON, different bytes = key order (the API's output passes through zod, which rebuilds objects)
      ...(api.text !== bare.text ? { firstDifference: { offset: at, api: api.text.slice(at, at + 60), bare: bare.text.slice(at, at + 60) } } : {}),
      bytes: { api: Buffer.byteLength(api.text), bare: Buffer.byteLength(bare.text) },
      contentType: { api: api.contentType, bare: bare.contentType },
      ...(route.name === 'categories' || route.name === 'search' ? { items: (api.json as { items: unknown[] }).items.length } : {}),
    };
  }
  return out;
}

/**
 * The SQL each target sends for one warm request (Postgres statement log). A replayed route's
 * statements go to the bare server (`toBare`) between the API's capture and the bare side's.
 */
export async function captureStatements(servers: Servers, headersOf: HeadersOf, paths: Record<string, string>, toBare: (path: string, statements: Statement[]) => void) {
  const out: Record<string, Record<(typeof ROLES)[number], string[]> & { sameText?: boolean }> = {};
  for (const route of ROUTES) {
    const headers = headersOf(route);
    out[route.name] = { api: [], bare: [] };
    for (const role of ROLES) {
      // warm (pool connection open), after the key cache's second has passed: the warm request looks the
      // key up again, so the measured one finds it cached on both sides
      await sleep(1100);
      await getJson(servers[role].url + paths[route.name], headers);
      await sleep(300); // the warm request's log lines arrive late on a busy machine
      statementLog.lines = [];
      statementLog.capturing = true;
      await getJson(servers[role].url + paths[route.name], headers);
      await sleep(800); // the log arrives on postgres' stderr a little later
      statementLog.capturing = false;
      out[route.name]![role] = statementLog.lines.map((l) => l.text);
      if (role === 'api' && isReplay(route)) toBare(route.path.split('?')[0]!, statementLog.lines);
    }
    const { api, bare } = out[route.name]!;
    if (process.env.BENCH_SHOW_SQL) console.error(`${route.name}\n  api:  ${api.join('\n        ')}\n  bare: ${bare.join('\n        ')}`);
    // the same statements, word for word (the bare side writes its finds as MikroORM does); categories'
    // and the key lookups' differ in form (`select *`, `$1` placeholders), not in what they read
    out[route.name]!.sameText = api.length === bare.length && api.every((sql, i) => sql === bare[i]);
    if (api.length !== bare.length) {
      throw new Error(`${route.path}: the API sends ${api.length} statements, the bare route ${bare.length}:\napi:  ${api.join('\n      ')}\nbare: ${bare.join('\n      ')}`);
    }
  }
  return out;
}
