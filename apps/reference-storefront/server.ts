import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import next from 'next';
import { CLIENT_IP_HEADER, FORWARDED_BY_UNTRUSTED_HEADER } from './lib/client.ts';

/**
 * The storefront's HTTP server: Next (`next start`'s production server, or `next dev` with `--dev`)
 * behind a few lines that decide who the client is, which Next cannot: it keeps a client's own
 * `X-Forwarded-For` as if a proxy had set it. Here:
 * - a request from an address in STOREFRONT_TRUSTED_PROXIES (the TLS proxy in front of the shop)
 *   keeps its `X-Forwarded-For/-Host/-Proto`, and the client is the address that proxy saw;
 * - from anyone else those headers are dropped (Next then sets them from the connection itself) and
 *   the client is the connection's peer;
 * - the client's address goes to the pages in CLIENT_IP_HEADER (any such header from outside is
 *   replaced); the shop passes it to the API (`X-Client-IP`) for per-IP sign-in limits and lets only
 *   loopback clients see the dev mailbox. `FORWARDED_BY_UNTRUSTED_HEADER` marks a request that came
 *   with forwarding headers through a proxy that is not trusted (the mailbox refuses those).
 */
const FORWARDING = ['x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port', 'forwarded', 'x-real-ip'];

/** `::ffff:127.0.0.1` → `127.0.0.1` (a dual-stack socket's IPv4 peer); `fe80::1%eth0` → `fe80::1` (the zone is this machine's business). */
function plain(address: string | undefined): string | undefined {
  if (!address) return undefined;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? mapped[1] : address.replace(/%.*$/, '');
}

export function trustedProxies(setting: string | undefined): Set<string> {
  const list = (setting ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  for (const ip of list) if (!isIP(ip)) throw new Error(`STOREFRONT_TRUSTED_PROXIES: "${ip}" is not an IP address (list the proxies' addresses, comma-separated).`);
  return new Set(list.map((ip) => plain(ip)!));
}

/**
 * Marks a request this server has identified, with a secret of this process (never sent to a
 * client). A server action that redirects has Next render the target by requesting it from this
 * same server, with the original request's headers plus its own `X-Forwarded-*`: that request is
 * the original one continued, so it keeps the original's client and marking — not "this machine,
 * through an untrusted proxy" (which hid the dev mailbox after signing in, and named the server as
 * the shopper). A request from outside cannot carry the secret.
 */
const IDENTIFIED_HEADER = 'x-shop-identified';
const IDENTIFIED = randomBytes(16).toString('hex');

/** Rewrites the request's forwarding headers as above and names its client. */
export function identifyClient(req: IncomingMessage, trusted: Set<string>, secret = IDENTIFIED): void {
  if (req.headers[IDENTIFIED_HEADER] === secret && req.headers[CLIENT_IP_HEADER] !== undefined) return;
  req.headers[IDENTIFIED_HEADER] = secret;
  const peer = plain(req.socket.remoteAddress) ?? '';
  let client = peer;
  const forwarded = FORWARDING.some((h) => req.headers[h] !== undefined);
  if (trusted.has(peer)) {
    // the rightmost address the trusted proxies did not add themselves (what a client wrote further left is not believed)
    const chain = String(req.headers['x-forwarded-for'] ?? '').split(',').map((s) => plain(s.trim()) ?? '');
    for (const hop of chain.reverse()) {
      if (trusted.has(hop)) continue;
      if (isIP(hop)) client = hop;
      break;
    }
    delete req.headers[FORWARDED_BY_UNTRUSTED_HEADER];
  } else {
    for (const h of FORWARDING) delete req.headers[h];
    if (forwarded) req.headers[FORWARDED_BY_UNTRUSTED_HEADER] = '1';
    else delete req.headers[FORWARDED_BY_UNTRUSTED_HEADER];
  }
  req.headers[CLIENT_IP_HEADER] = client;
}

/**
 * Next's request handler (production server, or `next dev` with `dev`) on one interface and port,
 * each request (and WebSocket upgrade) passed through `prepare` first; SIGTERM/SIGINT close it.
 * The back office (apps/back-office/server.ts) is served by this too.
 */
export async function serveNext(o: { dev: boolean; dir: string; hostname: string; port: number; name: string; prepare?: (req: IncomingMessage) => void }) {
  const { dev, hostname, port } = o;
  const started = Date.now();
  const app = next({ dev, dir: o.dir, hostname, port, ...(dev ? { turbopack: true } : {}) });
  const handle = app.getRequestHandler();
  await app.prepare();
  const upgrade = app.getUpgradeHandler();
  const server = createServer((req, res) => {
    o.prepare?.(req);
    void handle(req, res);
  });
  server.on('upgrade', (req: IncomingMessage, socket, head) => {
    o.prepare?.(req);
    void upgrade(req, socket, head);
  });
  server.listen(port, hostname, () => {
    process.stdout.write(`${o.name} (${dev ? 'next dev' : 'production build'}) on http://${hostname}:${port}: Ready in ${Date.now() - started} ms\n`);
  });
  const stop = () => {
    server.close(() => void app.close().finally(() => process.exit(0)));
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), 3000).unref();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

async function main() {
  const trusted = trustedProxies(process.env.STOREFRONT_TRUSTED_PROXIES);
  await serveNext({
    dev: process.argv.includes('--dev'),
    dir: import.meta.dirname,
    hostname: process.env.STOREFRONT_HOST || '127.0.0.1',
    port: Number(process.env.STOREFRONT_PORT || 3000),
    name: 'Storefront',
    prepare: (req) => identifyClient(req, trusted),
  });
}

if (import.meta.main) await main();
