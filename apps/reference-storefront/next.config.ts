import type { NextConfig } from 'next';

// No transpilePackages: the only workspace import is `import type { AppRouter } from '@hm/domain/router'`,
// which is erased at compile time, so no domain (or ORM) code reaches the bundle.
const config: NextConfig = {
  poweredByHeader: false,
  // Browser tests run their own dev server beside a developer's `npm start`: separate build folders.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  // Photo uploads go through a route handler (account/listings/[id]/photos), not a server action: no big action bodies.
};

export default config;
