import { LISTING_STATUSES, type Listing, type ListingStatus, type Marketplace } from '@hm/db/entities';
import { describe, expect, test } from 'vitest';
import { DomainError } from '../core/errors.js';
import { REMOVED, availableEvents, transition } from '../core/state-machine.js';
import { listingMachine, type ListingActor, type ListingEvent, type ListingMachineTypes } from './listing.machine.js';

const NOW = new Date('2026-11-23T10:00:00Z');
const EARLIER = new Date('2026-11-01T10:00:00Z');
const EVENTS: ListingEvent[] = ['publish', 'approve', 'deny', 'offer', 'accept_offer', 'counter_offer', 'close', 'delete'];
const ACTORS: ListingActor[] = ['seller', 'operator'];

type Setup = { approval?: boolean; askValuation?: boolean; countered?: boolean; everOnSale?: boolean };

/** A listing as the machine sees it (no database: the table and the mechanism only). */
function listing(status: ListingStatus, s: Setup = {}): Listing {
  return {
    status,
    counteredAt: s.countered ? EARLIER : null,
    everOnSale: s.everOnSale ?? false,
    publishedAt: null,
    closedAt: status === 'closed' ? EARLIER : null,
    reviewNote: status === 'closed' ? 'old note' : null,
    offerAmount: 100,
    offerCurrency: 'SEK',
    offerNote: 'old offer',
    offerSchedule: [],
  } as unknown as Listing;
}
const ctxOf = (s: Setup = {}) => ({ em: undefined as never, marketplace: { listingRules: { require_approval: s.approval ?? false } } as Marketplace });
const move = (l: Listing, event: ListingEvent, actor: ListingActor, s: Setup = {}) =>
  transition<ListingMachineTypes>(listingMachine, l, event, actor, { ctx: ctxOf(s), now: NOW, data: { askValuation: s.askValuation ?? false } });
const refusal = (l: Listing, event: ListingEvent, actor: ListingActor, s: Setup = {}) =>
  move(l, event, actor, s).then(
    () => undefined,
    (e: DomainError) => ({ code: e.code, detail: e.message }),
  );

/** The spec's table (States and transitions → Listing statuses), written out independently of the machine. */
const SPEC: [from: ListingStatus, event: ListingEvent, who: ListingActor, when: Setup, to: ListingStatus | typeof REMOVED][] = [
  ['draft', 'publish', 'seller', { approval: false }, 'published'],
  ['draft', 'publish', 'seller', { approval: true }, 'pending_approval'],
  ['draft', 'publish', 'seller', { askValuation: true }, 'pending_valuation'],
  ['closed', 'publish', 'seller', { approval: false }, 'published'],
  ['closed', 'publish', 'seller', { approval: true }, 'pending_approval'],
  ['closed', 'publish', 'seller', { askValuation: true, approval: true }, 'pending_valuation'],
  ['pending_approval', 'approve', 'operator', {}, 'published'],
  ['pending_approval', 'deny', 'operator', {}, 'denied'],
  ['pending_valuation', 'offer', 'operator', {}, 'valuation_offered'],
  ['pending_approval', 'offer', 'operator', { countered: true }, 'valuation_offered'],
  ['valuation_offered', 'accept_offer', 'seller', {}, 'pending_approval'],
  ['valuation_offered', 'counter_offer', 'seller', {}, 'pending_approval'],
  ['published', 'close', 'seller', {}, 'closed'],
  ['draft', 'delete', 'seller', { everOnSale: false }, REMOVED],
  ['draft', 'delete', 'seller', { everOnSale: true }, 'closed'],
  ['published', 'delete', 'seller', {}, 'closed'],
  ['closed', 'delete', 'seller', {}, 'closed'],
];

describe('every row of the listing table', () => {
  test.each(SPEC)('%s + %s by %s (%o) → %s', async (from, event, who, when, to) => {
    const l = listing(from, when);
    expect(availableEvents(listingMachine, l, who, ctxOf(when), { askValuation: when.askValuation ?? false })).toContain(event);
    const m = await move(l, event, who, when);
    expect(m).toMatchObject({ transition: event, from, to, actor: who, at: NOW });
    expect(l.status).toBe(to === REMOVED ? from : to);
  });

  test.each(SPEC)('%s + %s is refused to the other actor (403: never theirs)', async (from, event, who, when) => {
    const other = ACTORS.find((a) => a !== who)!;
    const l = listing(from, when);
    expect(await refusal(l, event, other, when)).toEqual({ code: 'forbidden', detail: `The ${other} cannot ${event.replace('_', ' ')} this listing.` });
    expect(l.status).toBe(from);
    expect(availableEvents(listingMachine, l, other, ctxOf(when))).not.toContain(event);
  });
});

describe('every event from every other status is refused (409, saying why)', () => {
  const allowed = new Set(SPEC.map(([from, event]) => `${from} ${event}`));
  const cases = LISTING_STATUSES.flatMap((status) => EVENTS.filter((e) => !allowed.has(`${status} ${e}`)).map((e) => [status, e] as const));
  const whoOf = (event: ListingEvent) => SPEC.find(([, e]) => e === event)![2];
  const WHY: Record<ListingStatus, string> = {
    draft: 'it is a draft',
    pending_valuation: 'the marketplace is valuing it',
    pending_approval: 'the marketplace is reviewing it',
    valuation_offered: 'it has an offer waiting for your answer (accept or counter)',
    published: 'it is on sale',
    closed: 'it is closed',
    denied: 'it was denied and cannot be sent again',
  };

  test('the cases cover the whole status × event grid', () => {
    expect(cases.length + allowed.size).toBe(LISTING_STATUSES.length * EVENTS.length);
  });

  test.each(cases)('%s + %s → 409', async (status, event) => {
    const l = listing(status);
    expect(await refusal(l, event, whoOf(event))).toEqual({ code: 'conflict', detail: `Cannot ${event.replace('_', ' ')} this listing: ${WHY[status]}.` });
    expect(l.status).toBe(status);
    expect(availableEvents(listingMachine, l, whoOf(event), ctxOf())).not.toContain(event);
  });

  test('an offer on pending_approval without a counter is refused with the guard’s reason', async () => {
    expect(await refusal(listing('pending_approval'), 'offer', 'operator')).toEqual({ code: 'conflict', detail: 'This listing is waiting for approval, not a valuation: approve or deny it.' });
  });
});

describe('what each row also sets (the table’s Also column)', () => {
  test('publish → published: published_at now, ever on sale, last round’s closing and note cleared', async () => {
    const l = listing('closed');
    await move(l, 'publish', 'seller');
    expect(l).toMatchObject({ publishedAt: NOW, everOnSale: true, closedAt: null, reviewNote: null });
  });

  test('publish → pending_valuation: the previous offer and counter are cleared', async () => {
    const l = listing('closed', { countered: true });
    await move(l, 'publish', 'seller', { askValuation: true });
    expect(l).toMatchObject({ offerAmount: null, offerCurrency: null, offerNote: null, offerSchedule: null, counteredAt: null, closedAt: null, reviewNote: null, publishedAt: null });
  });

  test('approve → published stamps published_at; counter stamps countered_at; accept clears it; close stamps closed_at', async () => {
    const l = listing('pending_approval');
    await move(l, 'approve', 'operator');
    expect(l).toMatchObject({ publishedAt: NOW, everOnSale: true });
    const c = listing('valuation_offered');
    await move(c, 'counter_offer', 'seller');
    expect(c.counteredAt).toEqual(NOW);
    const a = listing('valuation_offered', { countered: true });
    await move(a, 'accept_offer', 'seller');
    expect(a.counteredAt).toBeNull();
    const p = listing('published');
    await move(p, 'close', 'seller');
    expect(p.closedAt).toEqual(NOW);
  });

  test('deleting a closed listing changes nothing', async () => {
    const l = listing('closed');
    await move(l, 'delete', 'seller');
    expect(l).toMatchObject({ status: 'closed', closedAt: EARLIER });
  });

  test('available events of a draft: the seller may publish or delete it; the team nothing', () => {
    expect(availableEvents(listingMachine, listing('draft'), 'seller', ctxOf())).toEqual(['publish', 'delete']);
    expect(availableEvents(listingMachine, listing('draft'), 'operator', ctxOf())).toEqual([]);
    expect(availableEvents(listingMachine, listing('pending_approval'), 'operator', ctxOf())).toEqual(['approve', 'deny']);
    expect(availableEvents(listingMachine, listing('pending_approval', { countered: true }), 'operator', ctxOf())).toEqual(['approve', 'deny', 'offer']);
  });
});
