import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { revalidatingFetch } from './revalidating-fetch';

/** A tiny API: /thing answers `version` with its tag (304 when asked with it); /untagged has no tag. */
let server: Server;
let base: string;
let version = 1;
const seen: { url: string; ifNoneMatch?: string; method: string }[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ url: req.url!, method: req.method!, ...(req.headers['if-none-match'] ? { ifNoneMatch: String(req.headers['if-none-match']) } : {}) });
    const tag = `"v${version}"`;
    if (req.url!.startsWith('/untagged')) return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ version }));
    if (req.url!.startsWith('/missing')) return res.writeHead(404, { 'content-type': 'application/problem+json' }).end('{"status":404}');
    if (req.headers['if-none-match'] === tag) return res.writeHead(304, { etag: tag }).end();
    res.writeHead(200, { 'content-type': 'application/json', etag: tag }).end(JSON.stringify({ version, url: req.url }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

test('the second call revalidates with If-None-Match and a 304 answers the kept body as a 200; a new version replaces it', async () => {
  const f = revalidatingFetch();
  const first = await f(`${base}/thing?a=1`);
  expect(await first.json()).toEqual({ version: 1, url: '/thing?a=1' });
  const second = await f(`${base}/thing?a=1`);
  expect(second.status).toBe(200);
  expect(second.headers.get('content-type')).toBe('application/json');
  expect(await second.json()).toEqual({ version: 1, url: '/thing?a=1' });
  expect(seen.slice(-2).map((s) => s.ifNoneMatch)).toEqual([undefined, '"v1"']);
  version = 2;
  expect(await (await f(`${base}/thing?a=1`)).json()).toEqual({ version: 2, url: '/thing?a=1' });
  await f(`${base}/thing?a=1`);
  expect(seen.at(-1)!.ifNoneMatch).toBe('"v2"');
});

test('kept per URL; untagged answers, errors and writes are never kept; at most maxEntries, the least recently used forgotten', async () => {
  const f = revalidatingFetch(fetch, { maxEntries: 2 });
  await f(`${base}/untagged`);
  await f(`${base}/untagged`);
  expect(seen.at(-1)!.ifNoneMatch).toBeUndefined();
  expect((await f(`${base}/missing`)).status).toBe(404);
  await f(`${base}/thing?b=1`, { method: 'POST', body: '{}' });
  expect(f.size()).toBe(0);
  await f(`${base}/thing?x=1`);
  await f(`${base}/thing?y=1`);
  await f(`${base}/thing?x=1`); // x used again: y is now the oldest
  await f(`${base}/thing?z=1`);
  expect(f.size()).toBe(2);
  await f(`${base}/thing?y=1`);
  expect(seen.at(-1)!.url).toBe('/thing?y=1');
  expect(seen.at(-1)!.ifNoneMatch).toBeUndefined(); // forgotten
  await f(`${base}/thing?z=1`);
  expect(seen.at(-1)).toEqual({ url: '/thing?z=1', method: 'GET', ifNoneMatch: `"v${version}"` }); // kept
});
