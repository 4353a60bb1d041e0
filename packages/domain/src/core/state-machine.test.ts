import { describe, expect, test } from 'vitest';
import { DomainError } from './errors.js';
import { availableEvents, defineMachine, effectSlots, transition, type Effects, type Move } from './state-machine.js';

/** A small order-like machine: several actors, a guard on the caller, history kept on the entity. */
interface Parcel {
  status: 'paid' | 'sent' | 'received' | 'disputed';
  sentAt: Date | null;
  tracking: string | null;
  history: Move<ParcelTypes>[];
}
interface ParcelTypes {
  entity: Parcel;
  event: 'mark-sent' | 'mark-received' | 'dispute' | 'resolve';
  actor: 'buyer' | 'seller' | 'operator' | 'system';
  ctx: { log: string[]; disputesOpen: boolean };
  data: { tracking_number: string };
}
const parcels = defineMachine<ParcelTypes>({
  name: 'parcel',
  initial: 'paid',
  rows: [
    { from: ['paid'], event: 'mark-sent', to: 'sent', who: ['seller', 'operator'], stamp: ['sentAt'] },
    { from: ['sent'], event: 'mark-received', to: 'received', who: ['buyer', 'system'] },
    { from: ['sent'], event: 'dispute', to: 'disputed', who: ['buyer'], guard: (_p, ctx) => ctx.disputesOpen || 'Disputes are closed for this parcel.' },
    { from: ['disputed'], event: 'resolve', to: 'received', who: ['operator'], clear: ['tracking'] },
  ],
  refusal: (p, event) => `Cannot ${event} this parcel: it is ${p.status}.`,
  history: (p, move, ctx) => {
    ctx.log.push(`history ${move.transition}`);
    p.history.push(move);
  },
});
const effects: Effects<ParcelTypes> = {
  'mark-sent': [({ entity, ctx }) => void ctx.log.push(`email sent (status ${entity.status})`), ({ ctx }) => void ctx.log.push('job remind-buyer')],
};
const parcel = (status: Parcel['status']): Parcel => ({ status, sentAt: null, tracking: 'T1', history: [] });
const ctx = (disputesOpen = true) => ({ log: [] as string[], disputesOpen });
const NOW = new Date('2026-11-23T12:00:00Z');
const fails = (p: Promise<unknown>) => p.then(
  () => undefined,
  (e: DomainError) => ({ code: e.code, detail: e.message }),
);

describe('transition()', () => {
  test('sets the status and the row’s stamps, appends the move to history, then runs the event’s effects in order', async () => {
    const p = parcel('paid');
    const c = ctx();
    const prepared: string[] = [];
    const move = await transition(parcels, p, 'mark-sent', 'seller', {
      ctx: c,
      now: NOW,
      data: { tracking_number: 'RR1' },
      effects,
      prepare: (row) => void prepared.push(`${row.to} while ${p.status}`),
    });
    expect(prepared).toEqual(['sent while paid']); // before anything changed
    expect(p).toMatchObject({ status: 'sent', sentAt: NOW });
    expect(move).toEqual({ transition: 'mark-sent', from: 'paid', to: 'sent', actor: 'seller', at: NOW, data: { tracking_number: 'RR1' } });
    expect(p.history).toEqual([move]);
    expect(c.log).toEqual(['history mark-sent', 'email sent (status sent)', 'job remind-buyer']);
  });

  test('a failing prepare leaves the entity untouched and nothing recorded', async () => {
    const p = parcel('paid');
    const c = ctx();
    const err = await fails(transition(parcels, p, 'mark-sent', 'seller', { ctx: c, now: NOW, effects, prepare: () => Promise.reject(new DomainError('validation_failed', 'no tracking')) }));
    expect(err).toMatchObject({ code: 'validation_failed' });
    expect(p).toEqual(parcel('paid'));
    expect(c.log).toEqual([]);
  });

  test('clears the row’s fields', async () => {
    const p = parcel('disputed');
    await transition(parcels, p, 'resolve', 'operator', { ctx: ctx(), now: NOW });
    expect(p).toMatchObject({ status: 'received', tracking: null });
  });

  test('an actor no row of the event names is 403; an event not open from the status is 409 with the machine’s words', async () => {
    const p = parcel('paid');
    expect(await fails(transition(parcels, p, 'mark-sent', 'buyer', { ctx: ctx(), now: NOW }))).toEqual({ code: 'forbidden', detail: 'The buyer cannot mark sent this parcel.' });
    expect(await fails(transition(parcels, p, 'mark-received', 'buyer', { ctx: ctx(), now: NOW }))).toEqual({ code: 'conflict', detail: 'Cannot mark-received this parcel: it is paid.' });
    expect(p.status).toBe('paid');
    expect(p.history).toEqual([]);
  });

  test('a guard’s reason is the refusal (409)', async () => {
    const p = parcel('sent');
    expect(await fails(transition(parcels, p, 'dispute', 'buyer', { ctx: ctx(false), now: NOW }))).toEqual({ code: 'conflict', detail: 'Disputes are closed for this parcel.' });
  });
});

describe('availableEvents()', () => {
  test('events whose from matches, whose who includes the caller and whose guard passes', () => {
    expect(availableEvents(parcels, parcel('sent'), 'buyer', ctx())).toEqual(['mark-received', 'dispute']);
    expect(availableEvents(parcels, parcel('sent'), 'buyer', ctx(false))).toEqual(['mark-received']);
    expect(availableEvents(parcels, parcel('sent'), 'seller', ctx())).toEqual([]);
    expect(availableEvents(parcels, parcel('paid'), 'operator', ctx())).toEqual(['mark-sent']);
  });
});

describe('effectSlots()', () => {
  test('a slot listed in the table runs what a flow filled in, in the table’s order', async () => {
    const slots = effectSlots<ParcelTypes, 'notify'>('parcel', ['notify']);
    const effects: Effects<ParcelTypes> = { 'mark-sent': [({ ctx }) => void ctx.log.push('own'), slots.slot('notify')] };
    expect(slots.empty()).toEqual(['notify']);
    slots.fill({ notify: ({ ctx, move }) => void ctx.log.push(`notify ${move.to}`) });
    expect(slots.empty()).toEqual([]);
    const c = ctx();
    await transition(parcels, parcel('paid'), 'mark-sent', 'seller', { ctx: c, now: NOW, effects });
    expect(c.log.slice(-2)).toEqual(['own', 'notify sent']);
  });

  test('a slot nobody filled fails the move instead of skipping the effect; a slot is filled once', async () => {
    const slots = effectSlots<ParcelTypes, 'notify'>('parcel', ['notify']);
    const effects: Effects<ParcelTypes> = { 'mark-sent': [slots.slot('notify')] };
    await expect(transition(parcels, parcel('paid'), 'mark-sent', 'seller', { ctx: ctx(), now: NOW, effects })).rejects.toThrow('The parcel effect "notify" has no implementation');
    slots.fill({ notify: () => undefined });
    expect(() => slots.fill({ notify: () => undefined })).toThrow('filled already');
    expect(() => slots.fill({ ['other' as 'notify']: () => undefined })).toThrow('no effect slot "other"');
  });
});
