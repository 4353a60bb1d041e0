import { crossTenantEm, type MikroORM } from '@hm/db/orm';
import { crossTenantSql } from '@hm/db/sql';
import type { OperatorSessionRows } from '../core/context.js';

/**
 * The operator session check's one statement (the token names the tenant, so it crosses tenants):
 * the session, its operator and its marketplace as rows (column names as in the tables), ended or
 * not (authenticateOperator decides); undefined for an unknown token. The API keeps the answer per
 * process for up to a second (apps/api/src/http/api-key-cache.ts).
 */
export async function findOperatorSessionRows(orm: MikroORM, tokenHash: string): Promise<OperatorSessionRows | undefined> {
  const [row] = await crossTenantSql(crossTenantEm(orm))<OperatorSessionRows & Record<string, unknown>>`
    select to_jsonb(s) as session, to_jsonb(o) as operator, to_jsonb(m) as marketplace
      from operator_sessions s join operators o on o.id = s.operator_id join marketplaces m on m.id = s.marketplace_id
     where s.token_hash = ${tokenHash}`;
  return row;
}
