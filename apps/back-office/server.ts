import { serveNext } from '../reference-storefront/server.ts';

/**
 * The back office's HTTP server: Next (`next start`'s production server, or `next dev` with `--dev`)
 * on BACK_OFFICE_HOST (loopback by default) and BACK_OFFICE_PORT, as `npm start` runs it; served
 * like the storefront (its server.ts). No forwarding headers are believed: the app needs no client address.
 */
if (import.meta.main) {
  await serveNext({
    dev: process.argv.includes('--dev'),
    dir: import.meta.dirname,
    hostname: process.env.BACK_OFFICE_HOST || '127.0.0.1',
    port: Number(process.env.BACK_OFFICE_PORT || 3001),
    name: 'Back office',
  });
}
