import type { NextConfig } from 'next';

// No transpilePackages: the only workspace import is `import type { AppRouter } from '@hm/domain/router'`,
// which is erased at compile time, so no domain (or ORM) code reaches the bundle.
const config: NextConfig = {
  poweredByHeader: false,
  // Browser tests run their own dev server beside a developer's `npm start`: separate build folders.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  // Photo uploads pass through a server action on their way to the API (which takes up to 20 MiB).
  experimental: { serverActions: { bodySizeLimit: '21mb' } },
};

export default config;
