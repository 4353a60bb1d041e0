import { MikroORM, type EntityManager } from '@mikro-orm/postgresql';

/**
 * Tenancy in the database, as a second net under the ORM's `tenant` filter: every table with a
 * `marketplace_id` has row-level security (migration `…_row_level_security`). Tenant work runs as
 * the role below with the marketplace in a transaction-local setting; work that crosses tenants
 * on purpose runs as the connecting role with another setting, and says so by its helper's name.
 */

/** The ORM filter that scopes tenant entities by `marketplaceId` (see orm.ts). */
export const TENANT_FILTER = 'tenant';
/** Tenant work runs as this role: no superuser, no BYPASSRLS, so row-level security applies to it. */
export const TENANT_ROLE = 'hm_app';
/** The marketplace of the current transaction; the policies compare `marketplace_id` with it. */
export const MARKETPLACE_SETTING = 'hm.marketplace_id';
/** Set to `on` for a transaction that may cross tenants (the connecting role's own policy reads it). */
export const CROSS_TENANT_SETTING = 'hm.cross_tenant';

const root = (orm: MikroORM | EntityManager) => (orm instanceof MikroORM ? orm.em : orm);

/**
 * A fork of the entity manager scoped to one marketplace: the `tenant` filter on every entity query
 * and, for everything that reaches the database through it (entity queries, flushes, `execute`),
 * a transaction that runs as TENANT_ROLE with MARKETPLACE_SETTING set. MikroORM's session context
 * does this: it applies the settings with `set_config(…, true)` when it begins a transaction, and
 * wraps a statement outside one in a short transaction. Transaction-local, so nothing outlives the
 * transaction on a pooled connection. `role` is set through `set_config` too: one statement, not two.
 */
export function tenantEm(orm: MikroORM | EntityManager, marketplaceId: string): EntityManager {
  const em = root(orm).fork({ clear: true });
  em.setFilterParams(TENANT_FILTER, { marketplaceId });
  em.setSessionContext({ variables: { role: TENANT_ROLE, [MARKETPLACE_SETTING]: marketplaceId } });
  return em;
}

/** Where the connecting role skips row-level security (a superuser, or BYPASSRLS), by ORM configuration. */
const connectingRoleBypassesRls = new WeakMap<object, boolean>();

/** Learns once per ORM whether row-level security applies to the role it connects as (see crossTenantEm). */
export async function learnConnectingRole(orm: MikroORM): Promise<void> {
  const [row] = await orm.em.getConnection().execute<{ bypass: boolean }[]>(`select rolsuper or rolbypassrls as bypass from pg_roles where rolname = current_user`);
  connectingRoleBypassesRls.set(orm.config, row?.bypass === true);
}

const CROSS_TENANT = 'cross-tenant';

/**
 * A fork for work that crosses tenants on purpose: the API-key lookup (the key names the tenant),
 * the operator console, purges and fan-outs over every marketplace, migrations. It runs as the
 * connecting role, with CROSS_TENANT_SETTING on where row-level security applies to that role; a
 * superuser (the embedded server's `postgres`) skips it anyway, so there the setting, which costs
 * a short transaction per statement, is left out. Its log lines carry `tenancy: 'cross-tenant'`.
 * The `tenant` filter stays on: entity queries on tenant entities say `filters: false` where they
 * mean every marketplace.
 */
export function crossTenantEm(orm: MikroORM | EntityManager): EntityManager {
  const em = root(orm).fork({ clear: true, loggerContext: { tenancy: CROSS_TENANT } });
  if (connectingRoleBypassesRls.get(em.config) !== true) em.setSessionContext({ variables: { [CROSS_TENANT_SETTING]: 'on' } });
  return em;
}

/** The marketplace an entity manager from `tenantEm` is scoped to (filter and database agree), else undefined. */
export function tenantOf(em: EntityManager): string | undefined {
  const fromFilter = (em.getFilterParams(TENANT_FILTER) as { marketplaceId?: string } | undefined)?.marketplaceId;
  const session = em.getSessionContext()?.variables;
  return fromFilter !== undefined && session?.[MARKETPLACE_SETTING] === fromFilter && session.role === TENANT_ROLE ? fromFilter : undefined;
}

/** Whether an entity manager comes from `crossTenantEm`. */
export function isCrossTenant(em: EntityManager): boolean {
  return em.getLoggerContext().tenancy === CROSS_TENANT;
}
