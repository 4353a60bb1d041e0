// The storefront's Next config serves the back office too (one definition): no X-Powered-By, the
// build folder from NEXT_DIST_DIR (tests build beside a developer's `npm start`), metadata always in
// the server's <head>, and the fixed security headers on static files (pages get the CSP from proxy.ts).
export { default } from '../reference-storefront/next.config';
