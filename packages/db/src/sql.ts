import type { EntityManager } from '@mikro-orm/postgresql';
import { isCrossTenant, tenantOf } from './tenancy.js';

/**
 * Raw SQL, for what the ORM does not say well (upserts, counters, search). It lives in `*.queries.ts`
 * files and runs through one of these handles, never `em.execute` or the connection directly:
 *
 * - `tenantSql(em)`: an entity manager from `tenantEm`; every statement must bind the handle's
 *   `marketplace` (``sql`… where marketplace_id = ${sql.marketplace}` ``), which is the context's
 *   marketplace — a statement that does not is refused before it reaches the database.
 * - `crossTenantSql(em)`: an entity manager from `crossTenantEm`, for work that spans marketplaces on
 *   purpose (purges, fan-outs); the name is there to be seen in review.
 * - `jobSql(em)`: graphile-worker's queue, shared by every tenant, through the `hm_add_job` and
 *   `hm_remove_job` functions (which check a tenant's job carries its marketplace).
 *
 * Either way the statement runs through `em.execute`, so it gets the entity manager's transaction and
 * session context (role and marketplace setting), and row-level security is the second net.
 */

export class UnscopedSqlError extends Error {
  override name = 'UnscopedSqlError';
}

/** A handle's stand-in for its marketplace id: the handle binds the id itself, so no caller passes one. */
export class MarketplaceParam {
  readonly #brand = 'marketplace';
  /** Written into the SQL text instead of bound (`.query(\`…${sql.marketplace}…\`)`): say so rather than send nonsense. */
  toString(): never {
    throw new UnscopedSqlError(`sql.${this.#brand} must be bound as a parameter (a \`?\` with it in the values), not written into the SQL text.`);
  }
}

type Row = object;

export interface SqlHandle {
  /** One statement; `${value}` becomes a bound parameter. */
  <T extends Row = Record<string, unknown>>(strings: TemplateStringsArray, ...values: unknown[]): Promise<T[]>;
  /** A statement assembled at run time (filters, sorts): `?` placeholders, values in order. */
  query<T extends Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<T[]>;
}

export interface TenantSql extends SqlHandle {
  /** Bind this where the statement scopes by marketplace; a statement without it is refused. */
  readonly marketplace: MarketplaceParam;
}

function handle(run: (text: string, params: readonly unknown[]) => Promise<unknown[]>): SqlHandle {
  const tag = (strings: TemplateStringsArray, ...values: unknown[]) => run(strings.join('?'), values);
  return Object.assign(tag, { query: (text: string, params: readonly unknown[] = []) => run(text, params) }) as SqlHandle;
}

const preview = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, 120);

export function tenantSql(em: EntityManager): TenantSql {
  const marketplaceId = tenantOf(em);
  if (marketplaceId === undefined) throw new UnscopedSqlError('tenantSql needs an entity manager from tenantEm() (scoped to one marketplace).');
  const marketplace = new MarketplaceParam();
  // async: a refusal is a rejected promise like any database error
  const sql = handle(async (text, params) => {
    let scoped = false;
    const values = params.map((v) => {
      if (v === marketplace) {
        scoped = true;
        return marketplaceId;
      }
      if (v instanceof MarketplaceParam) throw new UnscopedSqlError(`Another handle's marketplace was bound in: ${preview(text)}`);
      return v;
    });
    if (!scoped) throw new UnscopedSqlError(`Tenant SQL must scope by marketplace_id = \${sql.marketplace}; refused: ${preview(text)}`);
    return em.execute(text, values);
  });
  return Object.assign(sql, { marketplace });
}

export function crossTenantSql(em: EntityManager): SqlHandle {
  if (!isCrossTenant(em)) throw new UnscopedSqlError('crossTenantSql needs an entity manager from crossTenantEm().');
  return handle((text, params) => em.execute(text, [...params]));
}

export function jobSql(em: EntityManager): SqlHandle {
  if (tenantOf(em) === undefined && !isCrossTenant(em)) throw new UnscopedSqlError('jobSql needs an entity manager from tenantEm() or crossTenantEm().');
  return handle((text, params) => em.execute(text, [...params]));
}
