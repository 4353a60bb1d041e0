import type { Listing } from '@hm/db/entities';
import { effectSlots, transition, type Effect, type Effects, type Move, type TransitionOptions } from '../core/state-machine.js';
import { scheduleNextDrop, startSchedule } from './commands/price-drops.js';
import { listingMachine, type ListingActor, type ListingEvent, type ListingMachineTypes } from './listing.machine.js';

type ListingEffect = Effect<ListingMachineTypes>;

/** On sale from now: the price schedule (re)starts counting and its first drop is scheduled. */
const startDrops: ListingEffect = ({ entity, move, ctx }) => (move.to === 'published' ? startSchedule(ctx.em, entity, move.at) : undefined);

/** Out of the shop: its waiting price drop is removed (only a listing on sale has one). */
const stopDrops: ListingEffect = ({ entity, move, ctx }) => (move.from === 'published' ? scheduleNextDrop(ctx.em, entity) : undefined);

/**
 * The listing effect whose work belongs to another module, named where it runs and filled by
 * flows/listing-review.ts: `notify-seller`, the seller's notice email of the team's decision.
 */
export const LISTING_EFFECT_SLOTS = effectSlots<ListingMachineTypes, 'notify-seller'>('listing', ['notify-seller']);
const notifySeller = LISTING_EFFECT_SLOTS.slot('notify-seller');

/** What each listing event also does, besides the fields its row sets. */
export const listingEffects: Effects<ListingMachineTypes> = {
  publish: [startDrops],
  approve: [startDrops, notifySeller],
  deny: [notifySeller],
  offer: [notifySeller],
  close: [stopDrops],
  delete: [stopDrops],
};

type MoveOptions = ListingMachineTypes['ctx'] & Pick<TransitionOptions<ListingMachineTypes>, 'now' | 'data' | 'prepare'>;

/** A listing move by its table, with these effects: the one way commands change a listing's status. */
export function moveListing(l: Listing, event: ListingEvent, actor: ListingActor, { em, marketplace, ...opts }: MoveOptions): Promise<Move<ListingMachineTypes>> {
  return transition(listingMachine, l, event, actor, { ...opts, ctx: { em, marketplace }, effects: listingEffects });
}
