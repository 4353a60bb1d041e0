import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { makeSellingMarketplace, signUp, startHarness, tokenOf, type Harness } from './harness.js';
import { sendBytes } from './fuzz/transport.js';

/**
 * A request whose framing says a body follows in a way HTTP/1.1 cannot read (`Transfer-Encoding:
 * gzip`, not chunked) and sends none: Node parses the head, hands the request to the app, then finds
 * the framing wrong and answers the connection itself. The answer is one 400 problem, on /v1 and
 * /console/v1 alike, however far the app had got with the request (a valid token: it is
 * authenticating), and nothing escapes as an uncaught `aborted` error.
 */
let h: Harness;
let port: number;
let admin: string;
let secret: string;
let session: string;
let user: string;
const uncaught: string[] = [];
const onUncaught = (e: Error) => void uncaught.push(process.env.FRAMING_STACK ? String(e.stack) : String(e));

beforeAll(async () => {
  process.on('uncaughtException', onUncaught);
  h = await startHarness();
  const m = await makeSellingMarketplace(h, 'framing', { min_images: 0 });
  secret = m.secret;
  const signed = await signUp(h, m.secret, { email: 'frame@example.com' });
  session = signed.token;
  user = (await h.request({ method: 'GET', url: '/v1/me', key: secret, session })).json().id;
  const { invitation_url } = await h.console.operators.create({ marketplace: 'framing', email: 'boss@framing.example', role: 'admin' });
  admin = (await h.request({ method: 'POST', url: '/console/v1/invitations/accept', payload: { token: tokenOf(invitation_url), password: 'correct horse battery' } })).json().token;
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  port = (h.app.server.address() as AddressInfo).port;
}, 120_000);
afterAll(async () => {
  await h?.close();
  process.off('uncaughtException', onUncaught);
});

const head = (method: string, url: string, headers: Record<string, string>) =>
  [`${method} ${url} HTTP/1.1`, 'host: localhost', 'connection: close', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)].join('\r\n');

const cases = () => [
  { name: 'console write', text: head('POST', `/console/v1/users/${user}/block`, { authorization: `Bearer ${admin}` }) },
  { name: 'console write with Idempotency-Key', text: head('POST', `/console/v1/users/${user}/unblock`, { authorization: `Bearer ${admin}`, 'idempotency-key': crypto.randomUUID() }) },
  { name: '/v1 write', text: head('POST', '/v1/me/listings', { authorization: `Bearer ${secret}`, 'x-user-session': session, 'content-type': 'application/json' }) },
  { name: '/v1 write with Idempotency-Key', text: head('PATCH', '/v1/me', { authorization: `Bearer ${secret}`, 'x-user-session': session, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() }) },
];

test('Transfer-Encoding: gzip and no body: a 400 problem each time, nothing uncaught', async () => {
  uncaught.length = 0;
  for (let round = 0; round < 10; round++) {
    for (const c of cases()) {
      const res = await sendBytes(port, Buffer.from(`${c.text}\r\ntransfer-encoding: gzip\r\n\r\n`, 'latin1'));
      expect([c.name, res.status], res.body).toEqual([c.name, 400]);
      expect(res.headers['content-type'], c.name).toMatch(/^application\/problem\+json/);
      expect(JSON.parse(res.body), c.name).toMatchObject({ status: 400, code: 'malformed_request' });
    }
  }
  await new Promise((r) => setTimeout(r, 300)); // the app's side of a request finishes after the answer
  expect(uncaught).toEqual([]);
}, 60_000);

test('Content-Encoding: gzip (an empty chunked body, or plain bytes): 415, nothing uncaught', async () => {
  uncaught.length = 0;
  for (let round = 0; round < 10; round++) {
    for (const c of cases()) {
      for (const body of ['transfer-encoding: chunked\r\n\r\n0\r\n\r\n', 'content-length: 2\r\n\r\n{}']) {
        const res = await sendBytes(port, Buffer.from(`${c.text}\r\ncontent-encoding: gzip\r\n${body}`, 'latin1'));
        expect([c.name, res.status], res.body).toEqual([c.name, 415]);
        expect(JSON.parse(res.body), c.name).toMatchObject({ status: 415, code: 'unsupported_media_type' });
      }
    }
  }
  await new Promise((r) => setTimeout(r, 300));
  expect(uncaught).toEqual([]);
}, 60_000);
