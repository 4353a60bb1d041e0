import { SiteSchema, type Site } from '@hm/db/entities';
import type { EntityManager } from '@hm/db/orm';
import type { CommandContext } from '../../core/context.js';
import type { SiteInput } from '../locations.schema.js';

export function toSiteBody(s: Site) {
  return {
    id: s.id,
    kind: s.kind,
    name: s.name,
    line1: s.line1,
    postal_code: s.postalCode,
    city: s.city,
    country: s.country,
    active: s.active,
    buyer_pickup: s.buyerPickup,
    created_at: s.createdAt.toISOString(),
    ...(s.openingHours ? { opening_hours: s.openingHours } : {}),
  };
}

export async function listActiveSites(ctx: CommandContext): Promise<Site[]> {
  return ctx.em.find(SiteSchema, { active: true }, { orderBy: { createdAt: 'asc', id: 'asc' } });
}

export async function createSite(em: EntityManager, marketplaceId: string, input: SiteInput): Promise<Site> {
  const site = em.create(SiteSchema, {
    marketplaceId,
    kind: input.kind,
    name: input.name,
    line1: input.line1,
    postalCode: input.postal_code,
    city: input.city,
    country: input.country,
    active: input.active,
    buyerPickup: input.buyer_pickup,
    openingHours: input.opening_hours ?? null,
  });
  await em.flush();
  return site;
}
