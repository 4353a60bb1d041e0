import net from 'node:net';

/** A response read off a raw socket: what a client on the network sees, byte for byte. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** ms from the first byte written to the end of the response */
  ms: number;
}

export interface RawExchange {
  socket: net.Socket;
  /** resolves with the response once its body is complete (or the server closed the connection) */
  response: Promise<RawResponse>;
  /** resolves when the server has closed the connection */
  closed: Promise<void>;
  /** bytes of the body written so far */
  sent(): number;
  write(chunk: Buffer | string): void;
}

/**
 * Opens a connection, writes `head` (request line and headers, without the blank line) and `body`
 * (often only the start of what Content-Length announces), and parses what comes back.
 */
export async function rawRequest(port: number, head: string, body: Buffer | string = ''): Promise<RawExchange> {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  socket.on('error', () => {}); // the server may reset a connection whose body it refuses to read
  const started = Date.now();
  let sent = 0;
  let raw = Buffer.alloc(0);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const response = new Promise<RawResponse>((resolve, reject) => {
    const tryParse = (final: boolean) => {
      const end = raw.indexOf('\r\n\r\n');
      if (end < 0) {
        if (final) reject(new Error(`connection closed without a response (${raw.length} bytes: ${raw.toString('latin1').slice(0, 200)})`));
        return;
      }
      const [statusLine, ...lines] = raw.subarray(0, end).toString('latin1').split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      const length = headers['content-length'] === undefined ? undefined : Number(headers['content-length']);
      const bodyBytes = raw.subarray(end + 4);
      if (length !== undefined ? bodyBytes.length >= length : final) {
        resolve({ status: Number(statusLine!.split(' ')[1]), headers, body: bodyBytes.subarray(0, length).toString('utf8'), ms: Date.now() - started });
      }
    };
    socket.on('data', (chunk: Buffer) => {
      raw = Buffer.concat([raw, chunk]);
      tryParse(false);
    });
    socket.once('close', () => tryParse(true));
  });
  response.catch(() => {});
  const write = (chunk: Buffer | string) => {
    if (socket.destroyed || socket.writableEnded) return;
    sent += Buffer.byteLength(chunk);
    socket.write(chunk);
  };
  socket.write(`${head}\r\n\r\n`);
  if (body.length) write(body);
  return { socket, response, closed, sent: () => sent, write };
}

/** Rejects when `p` takes longer than `ms`: a server that holds a request shows up as a failure, not a hung test. */
export function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms))]);
}
