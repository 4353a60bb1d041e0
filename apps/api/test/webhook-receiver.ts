import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A webhook receiver on 127.0.0.1 for the tests (test mode sends to http:// and localhost): keeps
 * every request it gets, answers the next status of `answers` (200 when none is left) with `body`.
 */
export async function startReceiver(body: (status: number) => string = (s) => (s === 200 ? 'ok' : 'down')) {
  const received: Received[] = [];
  const answers: number[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: text });
      res.statusCode = answers.shift() ?? 200;
      res.end(body(res.statusCode));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    answers,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
