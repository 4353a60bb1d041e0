import { CatalogTermSchema, CategorySchema, ListingImageSchema, ListingSchema, type Listing, type PriceStep } from '@hm/db/entities';
import type { EntityManager } from '@hm/db/orm';
import type { UserCommandContext } from '../../core/context.js';
import { DomainError, ValidationError, type FieldError } from '../../core/errors.js';
import { assertEditable, listingMachine } from '../listing.machine.js';
import type { ListingInput } from '../listing.schema.js';
import { missingForPublish } from '../publish-checks.js';
import { cleanSteps, leavesScheduleBehind, stepsNotBelowPrice } from '../price-schedule.js';
import { startSchedule } from './price-drops.js';
import { findOwnListing } from './find-listings.js';
import { changeListing } from './move-listing.js';
import { announceListingCreated } from '../listing.events.js';

/** Category and term ids must exist in this marketplace (and each term be of its kind). */
async function referenceErrors(em: EntityManager, input: ListingInput): Promise<FieldError[]> {
  const errors: FieldError[] = [];
  if (input.category_id && !(await em.count(CategorySchema, { id: input.category_id }))) {
    errors.push({ location: 'category_id', message: 'No such category in this marketplace.', value: input.category_id });
  }
  const terms = Object.entries(input.terms ?? {});
  if (terms.length) {
    const found = await em.find(CatalogTermSchema, { id: { $in: terms.map(([, id]) => id) } });
    for (const [kind, id] of terms) {
      const t = found.find((f) => f.id === id);
      if (!t || t.kind !== kind) errors.push({ location: `terms.${kind}`, message: `No ${kind} term with this id in this marketplace.`, value: id });
    }
  }
  return errors;
}

/** shipping_size belongs to the marketplace team; a seller may send it back unchanged (round-trips), nothing else. */
function assertShippingSizeUnchanged(listing: Listing | undefined, input: ListingInput) {
  if (input.shipping_size === undefined) return;
  const current = listing?.shippingSize ?? '';
  if (input.shipping_size === current) return;
  throw new DomainError('forbidden', 'The shipping size is set by the marketplace team; omit shipping_size (or send its current value).', {
    errors: [{ location: 'shipping_size', message: 'Set by the marketplace team only.', value: input.shipping_size }],
  });
}

/** The listing's content from a ListingInput: what create sets and replace overwrites (omitted = empty). */
function contentOf(input: ListingInput, defaultLocale: string) {
  return {
    title: input.title ?? '',
    description: input.description ?? '',
    locale: input.locale ?? defaultLocale,
    priceAmount: input.price?.amount ?? null,
    priceCurrency: input.price?.currency ?? null,
    categoryId: input.category_id ?? null,
    terms: input.terms ?? {},
    attributes: input.attributes ?? {},
    location: input.location ?? {},
    delivery: input.delivery ?? {},
    stock: input.stock ?? 1,
  };
}

/** POST /v1/me/listings: a draft, possibly incomplete. */
export async function createListing(ctx: UserCommandContext, input: ListingInput): Promise<Listing> {
  assertShippingSizeUnchanged(undefined, input);
  const errors = [...(await referenceErrors(ctx.em, input)), ...stepsNotBelowPrice(input.price?.amount, input.price_schedule, 'price_schedule')];
  if (errors.length) throw new ValidationError(errors);
  const now = ctx.clock.now();
  return ctx.em.transactional(async (em) => {
    const l = em.create(ListingSchema, {
      marketplaceId: ctx.marketplace.id,
      sellerId: ctx.user.id,
      status: listingMachine.initial,
      ...contentOf(input, ctx.marketplace.locales[0]!),
      priceSchedule: cleanSteps(input.price_schedule),
      scheduleStartedAt: null,
      offerAmount: null,
      offerCurrency: null,
      offerNote: null,
      offerSchedule: null,
      counteredAt: null,
      reviewNote: null,
      favoriteCount: 0,
      shippingSize: null,
      custody: 'seller',
      siteId: null,
      wantsStorage: false,
      storedAt: null,
      commissionPercent: null,
      everOnSale: false,
      sellerBlocked: false,
      publishedAt: null,
      closedAt: null,
      createdAt: now,
      updatedAt: now,
  });
  await em.flush();
  await announceListingCreated(em, ctx.marketplace, l, now);
  return l;
  });
}

const sameSteps = (a: { months: number; amount: number }[] | null | undefined, b: { months: number; amount: number }[] | null | undefined) =>
  JSON.stringify((a ?? []).map((s) => [s.months, s.amount])) === JSON.stringify((b ?? []).map((s) => [s.months, s.amount]));

/**
 * The schedule a replace leaves: the one sent, or the current one (done steps and all) when it is
 * sent back unchanged. A new schedule, or one meeting its first price, must fall from the price
 * sent; one sent back unchanged is not checked again (the seller may lower the price by hand
 * below a step: that step will not raise it). Sent back unchanged with a price in another
 * currency, it is left behind.
 */
function scheduleAfterReplace(l: Listing, input: ListingInput): { steps: PriceStep[] | null; changed: boolean; errors: FieldError[] } {
  const errors = () => stepsNotBelowPrice(input.price?.amount, input.price_schedule, 'price_schedule');
  if (!sameSteps(l.priceSchedule, input.price_schedule)) return { steps: cleanSteps(input.price_schedule), changed: true, errors: errors() };
  const dropped = !!l.priceSchedule?.length && leavesScheduleBehind(l, input.price?.currency);
  return { steps: dropped ? null : (l.priceSchedule ?? null), changed: dropped, errors: !dropped && (l.priceAmount ?? null) === null ? errors() : [] };
}

/**
 * PUT /v1/me/listings/{id}: replaces the whole content. Drafts may stay incomplete; a listing on
 * sale stays on sale and must stay complete (422 listing what would be missing). A schedule that
 * changes while on sale starts again from now.
 */
export async function replaceListing(ctx: UserCommandContext, id: string, input: ListingInput): Promise<Listing> {
  return changeListing(ctx, (em) => findOwnListing(em, ctx.user.id, id, { lock: true }), async (l, em, now) => {
    assertEditable(l);
    assertShippingSizeUnchanged(l, input);
    const schedule = scheduleAfterReplace(l, input);
    const errors = [...(await referenceErrors(em, input)), ...schedule.errors];
    if (errors.length) throw new ValidationError(errors);
    const scheduleChanged = schedule.changed;
    Object.assign(l, contentOf(input, ctx.marketplace.locales[0]!));
    l.priceSchedule = schedule.steps;
    if (l.status === 'published') {
      const ready = await em.count(ListingImageSchema, { listingId: l.id, status: 'ready' });
      // On sale means past review: the whole checklist applies, approval or not.
      const missing = missingForPublish(l, ready, ctx.marketplace, 'published');
      if (missing.length) throw new ValidationError(missing, `A listing on sale must stay complete: ${missing.length === 1 ? missing[0]!.message : `${missing.length} problems, see errors.`}`);
      if (scheduleChanged) await startSchedule(em, l, now);
    }
  });
}
