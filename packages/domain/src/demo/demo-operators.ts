import type { MikroORM } from '@hm/db/orm';
import { crossTenantEm, tenantEm } from '@hm/db/orm';
import { findMarketplaceBySlug } from '../marketplace/index.js';
import { ensureOperatorWithPassword } from '../operators/index.js';
import { DEMO_SLUG } from './seed-demo.js';

export interface DemoOperators {
  admin: { email: string; password: string };
  viewer: { email: string; password: string };
}

/** The demo's team in the back office: an admin and a viewer, with the passwords of this data directory. */
export function demoOperators(passwords: { admin: string; viewer: string }): DemoOperators {
  return { admin: { email: 'admin@demo.example', password: passwords.admin }, viewer: { email: 'viewer@demo.example', password: passwords.viewer } };
}

/** Makes (or gives these passwords to) the demo admin and viewer of the demo marketplace; run on each test-mode start. */
export async function ensureDemoOperators(orm: MikroORM, ops: DemoOperators, now = new Date()): Promise<void> {
  const marketplace = await findMarketplaceBySlug(crossTenantEm(orm), DEMO_SLUG);
  const em = tenantEm(orm, marketplace.id);
  await ensureOperatorWithPassword(em, marketplace, { ...ops.admin, role: 'admin' }, now);
  await ensureOperatorWithPassword(em, marketplace, { ...ops.viewer, role: 'viewer' }, now);
}
