import type { NextConfig } from 'next';
import { STATIC_SECURITY_HEADERS } from './lib/security-headers';

// No transpilePackages: the only workspace import is `import type { AppRouter } from '@hm/contract/router'`,
// which is erased at compile time, so no domain (or ORM) code reaches the bundle.
const config: NextConfig = {
  poweredByHeader: false,
  // Browser tests run their own dev server beside a developer's `npm start`: separate build folders.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  // Metadata in the server's <head> for every visitor, never streamed into the body: a streamed
  // title is moved to <head> by the browser's render, and a 404 or error page (which Next renders
  // again in the browser) showed two <title> elements until it did. One title, from the server.
  htmlLimitedBots: /.*/,
  // Static files too (pages get these and the CSP from proxy.ts).
  async headers() {
    return [{ source: '/:path*', headers: Object.entries(STATIC_SECURITY_HEADERS).map(([key, value]) => ({ key, value })) }];
  },
  // Photo uploads go through a route handler (account/listings/[id]/photos), not a server action: no big action bodies.
};

export default config;
