import net from 'node:net';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type { Req } from './operations.js';

export interface Res {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** The request as bytes on the wire: what a socket case sends exactly as written. */
export function wireBytes(req: Req): Buffer {
  if (req.bytes) return req.bytes;
  const body = req.payload === undefined ? Buffer.alloc(0) : Buffer.isBuffer(req.payload) ? req.payload : Buffer.from(req.payload);
  const lines = [`${req.method} ${req.url} HTTP/1.1`, 'host: localhost', 'connection: close'];
  for (const [name, value] of Object.entries(req.headers)) for (const v of Array.isArray(value) ? value : [value]) lines.push(`${name}: ${v}`);
  if (body.length || req.payload !== undefined) lines.push(`content-length: ${body.length}`);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), body]);
}

/** Sends bytes to a listening server and parses the one response (Connection: close; chunked or sized bodies). */
export function sendBytes(port: number, bytes: Buffer, timeoutMs = 10_000): Promise<Res> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete response within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', (e) => {
      // the server may reset the connection after answering (e.g. while the client still sends a body)
      if (chunks.length) return;
      clearTimeout(timer);
      reject(e);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      try {
        resolve(parseResponse(Buffer.concat(chunks)));
      } catch (e) {
        reject(e);
      }
    });
    // no half-close: the server takes a client's FIN as an aborted request and answers nothing
    socket.write(bytes);
  });
}

function parseResponse(raw: Buffer): Res {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`no HTTP response (${raw.length} bytes: ${raw.subarray(0, 80).toString('latin1')})`);
  const [statusLine, ...headerLines] = raw.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(statusLine!.split(' ')[1]);
  const headers: Res['headers'] = {};
  for (const line of headerLines) {
    const i = line.indexOf(':');
    headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  let body = raw.subarray(end + 4);
  if (String(headers['transfer-encoding']).toLowerCase() === 'chunked') {
    const parts: Buffer[] = [];
    let at = 0;
    for (;;) {
      const lineEnd = body.indexOf('\r\n', at);
      const size = parseInt(body.subarray(at, lineEnd).toString('latin1'), 16);
      if (!size) break;
      parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
      at = lineEnd + 2 + size + 2;
    }
    body = Buffer.concat(parts);
  }
  return { status, headers, body: body.toString('utf8') };
}

/** Injected requests for most cases (fast, no sockets); a real socket where bytes matter. */
export async function send(app: FastifyInstance, port: number, req: Req): Promise<Res> {
  if (req.socket || req.bytes) return sendBytes(port, wireBytes(req));
  const res = await app.inject({ method: req.method as InjectOptions['method'], url: req.url, headers: req.headers, ...(req.payload !== undefined ? { payload: req.payload } : {}) });
  return { status: res.statusCode, headers: res.headers as Res['headers'], body: res.body };
}
