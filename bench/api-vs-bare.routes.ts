/**
 * api-vs-bare: the routes measured (each on the API and on the bare server) and the servers' roles,
 * shared by the runner, its checks, the servers and the report.
 */

/** `api`: the API computing every answer (API_READ_CACHE=false, as before the read cache); `api-kept`: with it, as `npm start` */
export type Role = 'api' | 'bare' | 'api-kept';

/** `{id}`: the demo's on-sale listing with the most photos (chosen by the benchmark after seeding). */
const ALL_ROUTES = [
  { name: 'marketplace', path: '/v1/marketplace' },
  { name: 'categories', path: '/v1/categories' },
  { name: 'listing', path: '/v1/listings/{id}' },
  { name: 'search', path: '/v1/listings?limit=24' },
  // issue 30 item 7: the back office's list pages (an operator's session) and the event feed (the
  // secret key). Their bare routes replay the API's own statements, captured from Postgres' log, on
  // one connection and send the largest result's rows as JSON: the same SQL by construction, no
  // domain mapping (a stricter baseline than the storefront routes' above). No 304 part for these.
  { name: 'console-listings', path: '/console/v1/listings?limit=24', replay: true, auth: 'operator' },
  { name: 'console-orders', path: '/console/v1/orders?limit=24', replay: true, auth: 'operator' },
  { name: 'console-users', path: '/console/v1/users?limit=24', replay: true, auth: 'operator' },
  { name: 'console-support', path: '/console/v1/support?limit=24', replay: true, auth: 'operator' },
  { name: 'console-audit', path: '/console/v1/audit?limit=24', replay: true, auth: 'operator' },
  { name: 'events', path: '/v1/events?limit=24', replay: true, auth: 'secret' },
] as const satisfies readonly { name: string; path: string; replay?: true; auth?: 'operator' | 'secret' }[];
/** BENCH_ROUTES=name,…: measure only these (a short run on some routes); every route otherwise. */
const only = process.env.BENCH_ROUTES?.split(',').map((n) => n.trim()).filter(Boolean);
for (const name of only ?? []) if (!ALL_ROUTES.some((r) => r.name === name)) throw new Error(`BENCH_ROUTES: no route ${name} (${ALL_ROUTES.map((r) => r.name).join(', ')})`);
export const ROUTES: readonly (typeof ALL_ROUTES)[number][] = only?.length ? ALL_ROUTES.filter((r) => only.includes(r.name)) : ALL_ROUTES;
/** Routes whose bare side runs the domain's own code over the same statements (the rest replay the API's statements). */
export const isReplay = (route: (typeof ROUTES)[number]): boolean => 'replay' in route;
export type RouteName = (typeof ALL_ROUTES)[number]['name'];
