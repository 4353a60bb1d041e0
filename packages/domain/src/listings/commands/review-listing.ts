import { ListingSchema, SiteSchema, type Listing } from '@hm/db/entities';
import type { EntityManager } from '@hm/db/orm';
import { LockMode } from '@mikro-orm/core';
import type { CommandContext } from '../../core/context.js';
import { NotFoundError, ValidationError, type FieldError } from '../../core/errors.js';
import type { ListingEvent } from '../listing.machine.js';
import { cleanSteps, stepsNotBelowPrice } from '../price-schedule.js';
import { changeListing, moveInTransaction } from './move-listing.js';

async function lockListing(ctx: CommandContext, id: string) {
  const l = await ctx.em.findOne(ListingSchema, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!l) throw new NotFoundError('This listing');
  return l;
}

/** The team's other actions on one listing (console), each in one transaction. */
function teamAction(ctx: CommandContext, id: string, act: (l: Listing, em: EntityManager, now: Date) => Promise<void>): Promise<Listing> {
  return changeListing(ctx, (em) => lockListing({ ...ctx, em }, id), act);
}

/** A team move by the listing table (its effects send the seller's notice email); `prepare` sets what the move carries. */
function teamMove(ctx: CommandContext, id: string, event: ListingEvent, prepare?: (l: Listing) => void) {
  return moveInTransaction(ctx, (em) => lockListing({ ...ctx, em }, id), event, 'operator', { prepare });
}

export function approveListing(ctx: CommandContext, id: string) {
  return teamMove(ctx, id, 'approve');
}

export function denyListing(ctx: CommandContext, id: string, note: string) {
  return teamMove(ctx, id, 'deny', (l) => {
    l.reviewNote = note;
  });
}

export function offerForListing(ctx: CommandContext, id: string, offer: { amount: number; currency: string; note: string; schedule?: { months: number; amount: number }[] }) {
  const errors: FieldError[] = stepsNotBelowPrice(offer.amount, offer.schedule, 'schedule');
  if (!ctx.marketplace.currencies.includes(offer.currency)) {
    errors.unshift({ location: 'currency', message: `Must be one of the marketplace's currencies: ${ctx.marketplace.currencies.join(', ')}.`, value: offer.currency });
  }
  if (errors.length) throw new ValidationError(errors);
  return teamMove(ctx, id, 'offer', (l) => {
    l.offerAmount = offer.amount;
    l.offerCurrency = offer.currency;
    l.offerNote = offer.note;
    l.offerSchedule = cleanSteps(offer.schedule);
  });
}

/** The size is checked once the listing is found: another marketplace's listing is 404, whatever the size. */
export function setShippingSize(ctx: CommandContext, id: string, size: string) {
  return teamAction(ctx, id, async (l) => {
    const sizes = ((ctx.marketplace.shipping.sizes ?? []) as { key: string }[]).map((s) => s.key);
    if (size !== '' && !sizes.includes(size)) {
      throw new ValidationError([{ location: 'size', message: `Must be one of the shipping table's sizes (${sizes.join(', ') || 'none'}), or empty for none.`, value: size }]);
    }
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
