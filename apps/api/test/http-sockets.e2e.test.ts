import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { jpeg, makeSellingMarketplace, signUp, startHarness, type Harness } from './harness.js';
import { rawRequest, within, type RawResponse } from './sockets.js';

/**
 * What only shows on a real listening server: bodies that are refused before they are read, slow
 * bodies, oversized request heads, uploads that must not stall the process. Sockets, not inject().
 */
const MiB = 1024 * 1024;
const REQUEST_TIMEOUT_MS = 1000;
let h: Harness;
let port: number;
let m: Awaited<ReturnType<typeof makeSellingMarketplace>>;
let session: string;
let ended: string;
let listingId: string;

/** the app's pino log, as JSON lines */
const logLines: { level: number; msg: string; code?: string; reqId?: string }[] = [];

beforeAll(async () => {
  h = await startHarness({ app: { requestTimeoutMs: REQUEST_TIMEOUT_MS, logger: { level: 'info', stream: { write: (line: string) => void logLines.push(JSON.parse(line)) } } } });
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  port = (h.app.server.address() as AddressInfo).port;
  m = await makeSellingMarketplace(h, 'sockets', { min_images: 1 });
  session = (await signUp(h, m.secret, { email: 'seller@example.com' })).token;
  ended = (await signUp(h, m.secret, { email: 'gone@example.com' })).token;
  expect((await h.request({ method: 'DELETE', url: '/v1/sessions/current', key: m.secret, session: ended })).statusCode).toBe(204);
  listingId = (await h.request({ method: 'POST', url: '/v1/me/listings', key: m.secret, session, payload: { title: 'Lamp' } })).json().id;
});
afterAll(() => h.close());

function expectProblem(res: RawResponse, status: number, code: string) {
  expect(res.status, res.body).toBe(status);
  expect(res.headers['content-type']).toBe('application/problem+json');
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(JSON.parse(res.body)).toMatchObject({ status, code, type: `/docs/problems#${code}`, errors: expect.any(Array) });
}

describe('a photo upload the caller may not make is refused before its body is read', () => {
  const cases: [string, number, string, () => string][] = [
    ['publishable key', 403, 'publishable_key_not_allowed', () => `Authorization: Bearer ${m.publishable}\r\nX-User-Session: ${session}`],
    ['no key', 401, 'api_key_required', () => `X-User-Session: ${session}`],
    ['unknown key', 401, 'invalid_api_key', () => `Authorization: Bearer sk_test_${'x'.repeat(43)}\r\nX-User-Session: ${session}`],
    ['no session', 401, 'session_required', () => `Authorization: Bearer ${m.secret}`],
    ['ended session', 401, 'invalid_session', () => `Authorization: Bearer ${m.secret}\r\nX-User-Session: ${ended}`],
  ];
  test.each(cases)('%s → %i %s after 64 KiB of a 20 MiB body, and the connection is closed', async (_name, status, code, headers) => {
    const head = `POST /v1/me/listings/${listingId}/images HTTP/1.1\r\nHost: api.test\r\nContent-Type: image/jpeg\r\nContent-Length: ${20 * MiB}\r\nIdempotency-Key: ${randomUUID()}\r\n${headers()}`;
    const x = await rawRequest(port, head, Buffer.alloc(64 * 1024));
    const res = await within(x.response, 3000, 'the refusal');
    expectProblem(res, status, code);
    expect(res.headers.connection).toBe('close');
    expect(x.sent()).toBe(64 * 1024);
    await within(x.closed, 3000, 'closing the connection');
  });
});

describe('a JSON call the key may not make is refused before its body is read', () => {
  test.each([
    ['publishable key', 403, 'publishable_key_not_allowed', () => `Authorization: Bearer ${m.publishable}\r\nX-User-Session: ${session}`],
    ['no session on /v1/me…', 401, 'session_required', () => `Authorization: Bearer ${m.secret}`],
  ] as [string, number, string, () => string][])('%s → %i %s', async (_name, status, code, headers) => {
    const head = `POST /v1/me/listings HTTP/1.1\r\nHost: api.test\r\nContent-Type: application/json\r\nContent-Length: 900000\r\n${headers()}`;
    const x = await rawRequest(port, head, '{"title":"');
    const res = await within(x.response, 3000, 'the refusal');
    expectProblem(res, status, code);
    expect(res.headers['cache-control']).toBe('private, no-store');
    await within(x.closed, 3000, 'closing the connection');
  });
});

describe('uploads and the event loop', () => {
  test('a 20 MiB photo with an Idempotency-Key neither stalls the process nor is fingerprinted byte by byte; the retry replays', async () => {
    const photo = Buffer.concat([await jpeg(640, 480)]);
    const body = Buffer.concat([photo, Buffer.alloc(20 * MiB - photo.length)]); // a JPEG with trailing bytes: exactly 20 MiB
    const idem = randomUUID();
    const send = (bytes: Buffer) =>
      fetch(`http://127.0.0.1:${port}/v1/me/listings/${listingId}/images`, {
        method: 'POST',
        headers: { authorization: `Bearer ${m.secret}`, 'x-user-session': session, 'content-type': 'image/jpeg', 'idempotency-key': idem },
        body: bytes,
      });
    const lag = monitorEventLoopDelay({ resolution: 10 });
    lag.enable();
    const started = Date.now();
    const first = await within(send(body), 20_000, 'the upload');
    const ms = Date.now() - started;
    lag.disable();
    expect(first.status, await first.clone().text()).toBe(202);
    expect(ms).toBeLessThan(5000);
    expect(lag.max / 1e6).toBeLessThan(1000);
    const image = await first.json();
    const again = await send(body);
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.json()).toEqual(image);
    const other = Buffer.from(body);
    other[other.length - 1] = 1; // one byte differs at the very end
    const reused = await send(other);
    expect(reused.status).toBe(422);
    expect(await reused.json()).toMatchObject({ code: 'idempotency_key_reused' });
  }, 60_000);
});

describe('a dropped upload', () => {
  test('the connection closing halfway through a photo is logged as an aborted client upload (info), not as the database being unavailable', async () => {
    const photo = await jpeg(1200, 900);
    const listing = (await h.request({ method: 'POST', url: '/v1/me/listings', key: m.secret, session, payload: { title: 'Vase' } })).json().id as string;
    const head = `POST /v1/me/listings/${listing}/images HTTP/1.1\r\nHost: api.test\r\nAuthorization: Bearer ${m.secret}\r\nX-User-Session: ${session}\r\nContent-Type: image/jpeg\r\nContent-Length: ${photo.length}`;
    const from = logLines.length;
    const x = await rawRequest(port, head, photo.subarray(0, photo.length / 2));
    // the key and the session are checked before the body is read: wait until that request is past them
    const start = Date.now();
    while (!logLines.slice(from).some((l) => l.msg === 'incoming request') && Date.now() - start < 3000) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 200));
    x.socket.resetAndDestroy(); // what a phone losing its signal looks like to the server: a reset mid-body
    let lines: typeof logLines = [];
    while (Date.now() - start < 5000) {
      lines = logLines.slice(from);
      if (lines.some((l) => l.msg.startsWith('client aborted the upload'))) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const aborted = lines.find((l) => l.msg.startsWith('client aborted the upload'));
    expect(aborted, JSON.stringify(lines)).toMatchObject({ level: 30, msg: 'client aborted the upload: the connection closed before the whole body arrived', code: 'ECONNRESET', reqId: expect.any(String) });
    expect(lines.filter((l) => l.level >= 40)).toEqual([]);
    expect(lines.map((l) => l.msg)).not.toContain('database unavailable');
    // nothing was kept of the half photo
    expect((await h.request({ method: 'GET', url: `/v1/me/listings/${listing}`, key: m.secret, session })).json().images).toEqual([]);
  });
});

describe('slow and oversized requests', () => {
  test('a body that stops arriving → 408 problem after the request timeout, connection closed', async () => {
    const head = `POST /v1/users HTTP/1.1\r\nHost: api.test\r\nAuthorization: Bearer ${m.secret}\r\nContent-Type: application/json\r\nContent-Length: 100`;
    const x = await rawRequest(port, head, '{"email":');
    const res = await within(x.response, REQUEST_TIMEOUT_MS + 4000, 'the request timeout');
    expectProblem(res, 408, 'request_timeout');
    expect(res.ms).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
    await within(x.closed, 2000, 'closing the connection');
  }, 15_000);

  test('a URL over 16 KB → 431 problem', async () => {
    const x = await rawRequest(port, `GET /v1/listings?q=${'a'.repeat(17 * 1024)} HTTP/1.1\r\nHost: api.test\r\nAuthorization: Bearer ${m.secret}`);
    expectProblem(await within(x.response, 3000, 'the long URL'), 431, 'headers_too_large');
  });

  test('a request line that is not HTTP → 400 problem', async () => {
    const x = await rawRequest(port, 'HELLO THERE\r\nHost: api.test');
    expectProblem(await within(x.response, 3000, 'the garbage'), 400, 'malformed_request');
  });

  test('a URL that is not valid percent-encoding → 400 problem, under /v1 and elsewhere', async () => {
    for (const url of ['/v1/listings/%FF', '/v1/me/listings/%E0%A4%A/images', '/docs/%FF']) {
      const x = await rawRequest(port, `GET ${url} HTTP/1.1\r\nHost: api.test\r\nAuthorization: Bearer ${m.secret}\r\nConnection: close`);
      const res = await within(x.response, 3000, url);
      expectProblem(res, 400, 'malformed_request');
      expect(res.headers['request-id']).toMatch(/^req_/);
    }
  });

});
