import { MikroORM, defineConfig } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { allEntities, tenantEntities } from './entities/index.js';
import { migrationsList } from './migrations/index.js';
import { learnConnectingRole, TENANT_FILTER } from './tenancy.js';
import { ReleasingPostgreSqlDriver } from './releasing-driver.js';

export type { EntityManager } from '@mikro-orm/postgresql';
export { MikroORM } from '@mikro-orm/postgresql';
export { uuidv7 } from './ids.js';
export { TENANT_FILTER, tenantEm, crossTenantEm } from './tenancy.js';

export interface OrmOptions {
  poolMax?: number;
  debug?: boolean;
  /** where ORM and migrator messages go; silent by default (stdout belongs to the CLI's JSON) */
  log?: (message: string) => void;
}

export function ormConfig(clientUrl: string, opts: OrmOptions = {}) {
  return defineConfig({
    // a connection whose transaction dies with its session goes back to the pool (releasing-driver.ts)
    driver: ReleasingPostgreSqlDriver,
    clientUrl,
    entities: allEntities,
    extensions: [Migrator],
    migrations: { migrationsList, transactional: true, allOrNothing: true, snapshot: false },
    pool: { min: 0, max: opts.poolMax ?? 10 },
    // A request waits at most this long for a connection (all busy, or the server unreachable without
    // a refusal); then it fails as "unavailable" (503 + Retry-After) instead of hanging.
    driverOptions: { connectionTimeoutMillis: 5000 },
    debug: opts.debug ?? false,
    logger: opts.log ?? (() => {}),
    // Tenancy: every query on a tenant entity is scoped by the marketplace set on the request's fork.
    // It is on by default, so a fork that forgot to set the marketplace fails loudly instead of leaking.
    filters: {
      [TENANT_FILTER]: {
        name: TENANT_FILTER,
        entity: tenantEntities,
        cond: (args: { marketplaceId: string }) => ({ marketplaceId: args.marketplaceId }),
        default: true,
      },
    },
    // Row-level security: a tenant fork's role and marketplace are applied per transaction (tenancy.ts).
    sessionContext: 'transaction',
    forceUtcTimezone: true,
    allowGlobalContext: false,
  });
}

export async function createOrm(clientUrl: string, opts: OrmOptions = {}): Promise<MikroORM> {
  const orm = await MikroORM.init(ormConfig(clientUrl, opts));
  await learnConnectingRole(orm);
  return orm;
}
