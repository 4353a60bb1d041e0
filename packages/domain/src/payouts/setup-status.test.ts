import { expect, test } from 'vitest';
import { setupStatusOf } from './setup-status.js';

const requirements = (over: object = {}) => ({ currently_due: [], past_due: [], pending_verification: [], ...over });

test('a fresh account (nothing submitted) is none, even with its first requirements due', () => {
  expect(setupStatusOf({ details_submitted: false, requirements: requirements({ currently_due: ['external_account'] }) })).toEqual({ status: 'none', due: [] });
});

test('currently due and past due → action_required listing both, once each, sorted', () => {
  const account = { details_submitted: true, requirements: requirements({ currently_due: ['individual.dob.day', 'external_account'], past_due: ['external_account'] }), capabilities: { transfers: 'active' }, payouts_enabled: true };
  expect(setupStatusOf(account)).toEqual({ status: 'action_required', due: ['external_account', 'individual.dob.day'] });
});

test('pending verification → pending; transfers active and payouts enabled → ready; otherwise pending', () => {
  expect(setupStatusOf({ details_submitted: true, requirements: requirements({ pending_verification: ['individual.verification.document'] }) }).status).toBe('pending');
  expect(setupStatusOf({ details_submitted: true, requirements: requirements(), capabilities: { transfers: 'active' }, payouts_enabled: true })).toEqual({ status: 'ready', due: [] });
  expect(setupStatusOf({ details_submitted: true, requirements: requirements(), capabilities: { transfers: 'active' }, payouts_enabled: false }).status).toBe('pending');
  expect(setupStatusOf({ details_submitted: true, requirements: null, capabilities: { transfers: 'inactive' }, payouts_enabled: true }).status).toBe('pending');
});
