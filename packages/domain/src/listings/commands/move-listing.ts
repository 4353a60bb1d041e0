import type { Listing } from '@hm/db/entities';
import type { EntityManager } from '@hm/db/orm';
import type { CommandContext, UserCommandContext } from '../../core/context.js';
import type { Row } from '../../core/state-machine.js';
import { moveListing } from '../listing.effects.js';
import { announcingUpdate } from '../listing.events.js';
import type { ListingActor, ListingEvent, ListingMachineTypes } from '../listing.machine.js';
import { findOwnListing } from './find-listings.js';

export interface MoveInput {
  data?: ListingMachineTypes['data'];
  /** once the move is allowed, before it changes anything: check the input against the row (422), set what the move carries */
  prepare?: (l: Listing, em: EntityManager, row: Row<ListingMachineTypes>) => void | Promise<void>;
}

/** One change to one listing in its own transaction: locked (by `lock`), changed, its change time set, announced (`listing.updated`). */
export function changeListing(ctx: CommandContext, lock: (em: EntityManager) => Promise<Listing>, change: (l: Listing, em: EntityManager, now: Date) => Promise<unknown>): Promise<Listing> {
  return ctx.em.transactional(async (em) => {
    const l = await lock(em);
    const now = ctx.clock.now();
    await announcingUpdate(em, ctx.marketplace, l, now, async () => {
      await change(l, em, now);
      l.updatedAt = now;
      await em.flush();
    });
    return l;
  });
}

/** One listing move in its own transaction, by the table (with the event's effects). */
export function moveInTransaction(ctx: CommandContext, lock: (em: EntityManager) => Promise<Listing>, event: ListingEvent, actor: ListingActor, input: MoveInput = {}): Promise<Listing> {
  return changeListing(ctx, lock, (l, em, now) => moveListing(l, event, actor, { em, marketplace: ctx.marketplace, now, data: input.data, prepare: (row) => input.prepare?.(l, em, row) }));
}

/** The seller's move on their own listing (another's is 404). */
export function sellerMove(ctx: UserCommandContext, id: string, event: ListingEvent, input: MoveInput = {}): Promise<Listing> {
  return moveInTransaction(ctx, (em) => findOwnListing(em, ctx.user.id, id, { lock: true }), event, 'seller', input);
}
