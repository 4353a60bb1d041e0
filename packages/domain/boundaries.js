// The domain's shape, checked by ESLint (eslint.config.js) and by src/structure.test.ts:
// - core/ holds mechanisms (errors, machines, paging, tasks, ports, tenancy) and imports no module;
// - each feature module is used by others only through its index.ts, and never calls flows/;
// - flows/ and the composition files above the modules use module entries only (a lint rule says so for flows/);
//   modules and core never import flows/.
// The allowed module order (a DAG) is in packages/domain/README.md.

/** The feature modules, each a folder of src/ with one public entry, index.ts. */
export const MODULES = ['accounts', 'api-keys', 'catalog', 'locations', 'marketplace', 'listings', 'listing-search', 'images', 'orders', 'payments', 'payouts', 'vouchers', 'messages', 'pages', 'newsletter', 'rates', 'emails', 'webhooks', 'operators'];

/**
 * Which modules each module may use (through their entries): the module order, a DAG (structure.test.ts
 * fails on a cycle, or on an arrow not listed here). Lower modules first; a module uses only ones above it in this list.
 */
export const MAY_USE = {
  rates: [],
  emails: [],
  images: [],
  'api-keys': [],
  catalog: [],
  locations: [],
  payments: [],
  vouchers: ['rates'],
  listings: ['images'],
  accounts: ['emails', 'listings'],
  newsletter: ['accounts'],
  marketplace: ['newsletter', 'rates'],
  payouts: ['marketplace', 'payments', 'rates', 'emails'],
  'listing-search': ['accounts', 'listings', 'rates'],
  orders: ['listings', 'marketplace', 'rates', 'vouchers'],
  messages: ['listings', 'marketplace', 'orders'],
  pages: ['images', 'listing-search', 'listings', 'rates'],
  webhooks: ['emails'],
  operators: ['accounts', 'emails'],
};

/** Folders and files of src/ above the modules: they may use module entries, core and each other; modules and core may not use them. */
export const ABOVE = ['flows', 'demo', 'testing', 'tasks', 'local-ports', 'doctor'];

/** The HTTP contract (packages/contract) sits above the whole domain: no domain file imports it, tRPC or HTTP. */
export const TRANSPORT = ['@hm/contract', '@trpc/server', 'trpc-to-openapi', 'fastify'];

const SQL = { name: '@hm/db/sql', message: 'Raw SQL goes in a *.queries.ts file.' };
const NO_TRANSPORT = {
  group: TRANSPORT.flatMap((t) => [t, `${t}/*`]),
  message: 'The domain knows no HTTP and no tRPC: procedures, routers and problems live in @hm/contract, above it.',
};
const names = (list) => list.map((n) => n.replaceAll('.', '\\.')).join('|');

/** A relative import reaching into another module past its index.ts, or up into flows and the layers above. */
function moduleRules(mod) {
  const others = MODULES.filter((m) => m !== mod);
  return [
    {
      regex: `^(\\.\\./)+(${names(others)})/(?!index\\.js$)`,
      message: `Another module is used through its entry only: import from '../<module>/index.js' (${mod} may not reach into another module's files).`,
    },
    NO_TRANSPORT,
    {
      regex: `^(\\.\\./)+(${names(ABOVE)})(/|\\.js$)`,
      message: 'A module does not use the flows, the composition files or the HTTP contract above it; invert through a port or registration, or move the code up.',
    },
  ];
}

const CORE_RULES = [
  NO_TRANSPORT,
  {
    regex: `^(\\.\\./)+(${names([...MODULES, ...ABOVE])})(/|\\.js$)`,
    message: 'core/ holds mechanisms only and imports no module (if it names an order or a listing, it belongs to a module).',
  },
];

/** A flow (and anything else above the modules) reaching into a module past its index.ts. */
const FLOW_RULES = [
  {
    regex: `^(\\.\\./)+(${names(MODULES)})/(?!index\\.js$)`,
    message: "A flow uses a module through its entry only: import from '../<module>/index.js' (what it needs that the entry lacks is a step the module should expose).",
  },
];

/** ESLint flat-config entries for the domain under `src` (a path from the repository root). */
export function boundaryConfigs(src) {
  const scoped = (files, patterns) => [
    { files, ignores: ['**/*.test.ts', '**/*.queries.ts'], rules: { 'no-restricted-imports': ['error', { paths: [SQL], patterns }] } },
    { files: files.map((f) => f.replace(/\*\*\/\*\.ts$/, '**/*.queries.ts')), rules: { 'no-restricted-imports': ['error', { patterns }] } },
  ];
  return [
    // flows, tasks, demo, testing, local-ports: module entries and core, no transport
    ...scoped([`${src}/**/*.ts`], [NO_TRANSPORT]),
    ...MODULES.flatMap((m) => scoped([`${src}/${m}/**/*.ts`], moduleRules(m))),
    ...scoped([`${src}/core/**/*.ts`], CORE_RULES),
    ...scoped([`${src}/flows/**/*.ts`], [NO_TRANSPORT, ...FLOW_RULES]),
  ];
}
