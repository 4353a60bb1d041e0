import type { NextConfig } from 'next';
import base from '../reference-storefront/next.config';

// The storefront's Next config serves the back office too (one definition): no X-Powered-By, the
// build folder from NEXT_DIST_DIR (tests build beside a developer's `npm start`), metadata always in
// the server's <head>, and the fixed security headers on static files (pages get the CSP from proxy.ts).
// One difference: the media library's upload is a server action (a form that works without
// JavaScript) carrying an image of up to 20 MiB, the API's own limit, through the proxy and the action.
const config: NextConfig = {
  ...base,
  experimental: { ...base.experimental, serverActions: { ...base.experimental?.serverActions, bodySizeLimit: '21mb' }, proxyClientMaxBodySize: '21mb' },
};

export default config;
