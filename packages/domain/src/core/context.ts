import type { MikroORM, EntityManager } from '@hm/db/orm';
import type { Marketplace, Session, User } from '@hm/db/entities';
import type { DomainError } from './errors.js';
import type { Ports } from './ports/index.js';

export { systemClock, type Clock, type Ports } from './ports/index.js';

export type ApiMode = 'test' | 'live';

/** An operator session's row with its operator's and marketplace's (column names as in the tables), found by the token's hash. */
export interface OperatorSessionRows {
  session: Record<string, unknown>;
  operator: Record<string, unknown>;
  marketplace: Record<string, unknown> & { id: string };
}
export type OperatorSessionLookup = (tokenHash: string) => Promise<OperatorSessionRows | undefined>;
export type KeyKind = 'secret' | 'publishable';

export interface AuthenticatedKey {
  apiKeyId: string;
  kind: KeyKind;
  marketplace: Marketplace;
}

/** What the transport hands to every procedure (built by apps/api for REST, tRPC and the console), with the ports. */
export interface Context extends Ports {
  orm: MikroORM;
  mode: ApiMode;
  transport: 'rest' | 'trpc' | 'console';
  requestId: string;
  /** The API key, already resolved by the transport (once per request), or why it failed. */
  auth: AuthenticatedKey | DomainError | undefined;
  sessionToken: string | undefined;
  /** The back-office operator's session token (`ops_…`), from `Authorization` or the console cookie (/console only). */
  operatorToken?: string;
  /** How the operator session's rows are found (the API's per-process cache); default: one statement each time */
  operatorLookup?: OperatorSessionLookup;
  /** `console`: a back-office request (/console/…), answered from the back office's router */
  surface?: 'console';
  /** Where operators' invitation links lead (the back-office app); default: the API's `/console` */
  backOfficeUrl?: string;
  /** public URL of the API (image URLs in responses) */
  publicUrl: string;
  /** The shopper's IP address, as a storefront's server passed it with its secret key (`X-Client-IP`); per-IP limits use it. */
  clientIp?: string;
  /** the console's only: the deployment's configuration, for the go-live check */
  deployment?: DeploymentFacts;
  /** /v1's only: exact counts of the key's marketplace kept per API process (KeptCounts) */
  keptCounts?: KeptCounts;
}

/**
 * Exact counts of a marketplace's listings on sale matching a search's filters (`total`), kept per
 * API process by the read cache (apps/api/src/http/read-cache.ts) until a change to what they count
 * commits (any change to the marketplace's public data but a listing's favourite count): `get` finds
 * nothing, and `set` keeps nothing, once such a change was heard after the request arrived.
 */
export interface KeptCounts {
  get(key: string): number | undefined;
  set(key: string, count: number): void;
}

/**
 * What the go-live check (`console doctor`) needs to know of the deployment's configuration beyond
 * its ports; only the console's context carries it.
 */
export interface DeploymentFacts {
  /** MAIL_FROM */
  mailFrom: string;
  /** the embedded PostgreSQL under DATA_DIR (no DATABASE_URL) */
  embeddedDatabase: boolean;
  /** STRIPE_WEBHOOK_SECRET and STRIPE_CONNECT_WEBHOOK_SECRET are set */
  stripeWebhookSecret: boolean;
  stripeConnectWebhookSecret: boolean;
}

/** The context inside a procedure that needs a key: marketplace known, entity manager scoped to it. */
export interface KeyContext extends Context {
  em: EntityManager;
  marketplace: Marketplace;
  apiKey: { id: string; kind: KeyKind };
}

/** Inside `/v1/me…` procedures: the signed-in user and their session. */
export interface UserContext extends KeyContext {
  user: User;
  session: Session;
}

/** What domain commands need: deliberately free of tRPC and HTTP; the outside world only through the ports. */
export interface CommandContext extends Ports {
  em: EntityManager;
  marketplace: Marketplace;
  /** the shopper's IP address when a trusted storefront passed it (sign-in limits per IP); unknown otherwise */
  clientIp?: string;
  /** exact search counts kept per process (/v1 reads); absent: counted every time */
  keptCounts?: KeptCounts;
}

/** A command acting for a signed-in user (their own listings, …). */
export interface UserCommandContext extends CommandContext {
  user: User;
}

/** The operator console's context (CLI, tests): no API key or session; procedures name the marketplace. */
export function consoleContext(deps: { orm: MikroORM; mode: ApiMode; ports: Ports; publicUrl: string; backOfficeUrl?: string; deployment?: DeploymentFacts }, requestId: string): Context {
  return {
    ...deps.ports,
    orm: deps.orm,
    mode: deps.mode,
    transport: 'console',
    requestId,
    auth: undefined,
    sessionToken: undefined,
    publicUrl: deps.publicUrl,
    ...(deps.backOfficeUrl !== undefined && { backOfficeUrl: deps.backOfficeUrl }),
    ...(deps.deployment && { deployment: deps.deployment }),
  };
}
