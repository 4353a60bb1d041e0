import { ListingSchema, SiteSchema, UserSchema, type Listing } from '@hm/db/entities';
import type { EntityManager } from '@hm/db/orm';
import { LockMode } from '@mikro-orm/core';
import type { CommandContext } from '../../context.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import { queueListingNotice } from '../../emails/commands/queue-email.js';
import { assertTransition } from '../listing.machine.js';
import { cleanSteps } from '../price-schedule.js';
import { startSchedule } from './price-drops.js';

/** Published: on sale from now, with its price schedule counting from now. */
export async function putOnSale(em: EntityManager, l: Listing, now: Date): Promise<void> {
  l.status = 'published';
  l.publishedAt = now;
  l.closedAt = null;
  l.everOnSale = true;
  await startSchedule(em, l, now);
}

async function lockListing(ctx: CommandContext, id: string) {
  const l = await ctx.em.findOne(ListingSchema, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!l) throw new NotFoundError('This listing');
  return l;
}

async function notify(ctx: CommandContext, em: EntityManager, l: Listing, template: 'listing_offer' | 'listing_denied' | 'listing_published') {
  const seller = await em.findOneOrFail(UserSchema, { id: l.sellerId });
  await queueListingNotice(em, ctx.marketplace, seller, template, l.id);
}

/** The team's actions on one listing (console), each in a transaction with the seller's notice email. */
function teamAction(ctx: CommandContext, id: string, act: (l: Listing, em: EntityManager, now: Date) => Promise<void>): Promise<Listing> {
  return ctx.em.transactional(async (em) => {
    const l = await lockListing({ ...ctx, em }, id);
    const now = ctx.clock.now();
    await act(l, em, now);
    l.updatedAt = now;
    await em.flush();
    return l;
  });
}

export function approveListing(ctx: CommandContext, id: string) {
  return teamAction(ctx, id, async (l, em, now) => {
    assertTransition(l, 'approve');
    await putOnSale(em, l, now);
    await notify(ctx, em, l, 'listing_published');
  });
}

export function denyListing(ctx: CommandContext, id: string, note: string) {
  return teamAction(ctx, id, async (l, em) => {
    assertTransition(l, 'deny');
    l.status = 'denied';
    l.reviewNote = note;
    await notify(ctx, em, l, 'listing_denied');
  });
}

export function offerForListing(ctx: CommandContext, id: string, offer: { amount: number; currency: string; note: string; schedule?: { months: number; amount: number }[] }) {
  if (!ctx.marketplace.currencies.includes(offer.currency)) {
    throw new ValidationError([{ location: 'currency', message: `Must be one of the marketplace's currencies: ${ctx.marketplace.currencies.join(', ')}.`, value: offer.currency }]);
  }
  return teamAction(ctx, id, async (l, em) => {
    assertTransition(l, 'offer');
    l.status = 'valuation_offered';
    l.offerAmount = offer.amount;
    l.offerCurrency = offer.currency;
    l.offerNote = offer.note;
    l.offerSchedule = cleanSteps(offer.schedule);
    await notify(ctx, em, l, 'listing_offer');
  });
}

export function setShippingSize(ctx: CommandContext, id: string, size: string) {
  const sizes = ((ctx.marketplace.shipping.sizes ?? []) as { key: string }[]).map((s) => s.key);
  if (size !== '' && !sizes.includes(size)) {
    throw new ValidationError([{ location: 'size', message: `Must be one of the shipping table's sizes (${sizes.join(', ') || 'none'}), or empty for none.`, value: size }]);
  }
  return teamAction(ctx, id, async (l) => {
    l.shippingSize = size === '' ? null : size;
  });
}

export function setCommission(ctx: CommandContext, id: string, percent: number | null) {
  return teamAction(ctx, id, async (l) => {
    l.commissionPercent = percent;
  });
}

/** Storage: the team books collection (collecting, to a site) and then has it (stored, from now). */
export function setCustody(ctx: CommandContext, id: string, custody: 'seller' | 'collecting' | 'stored', siteId: string | undefined) {
  return teamAction(ctx, id, async (l, em, now) => {
    if (custody === 'seller') {
      l.custody = 'seller';
      l.siteId = null;
      l.storedAt = null;
      return;
    }
    if (!siteId) throw new ValidationError([{ location: 'site', message: 'A site is needed to collect or store a listing.', value: null }]);
    const site = await em.findOne(SiteSchema, { id: siteId });
    if (!site) throw new ValidationError([{ location: 'site', message: 'No such site in this marketplace.', value: siteId }]);
    const alreadyStored = l.custody === 'stored' && l.storedAt;
    l.custody = custody;
    l.siteId = site.id;
    l.storedAt = custody === 'stored' ? (alreadyStored ? l.storedAt : now) : null;
  });
}
