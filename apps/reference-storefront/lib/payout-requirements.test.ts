import { describe, expect, test } from 'vitest';
import { messages } from './messages';
import { payoutRequirements } from './payout-requirements';

const en = messages('en').payouts.requirements;
const sv = messages('sv').payouts.requirements;
const de = messages('de').payouts.requirements;

describe('payoutRequirements', () => {
  test('the bank account in plain words, in en, sv and de', () => {
    expect(payoutRequirements(['external_account'], en)).toEqual(['Add the bank account your money is paid to']);
    expect(payoutRequirements(['external_account'], sv)).toEqual(['Lägg till bankkontot som pengarna betalas ut till']);
    expect(payoutRequirements(['external_account'], de)).toEqual(['Füge das Bankkonto hinzu, auf das dein Geld ausgezahlt wird']);
  });

  test('one line per thing: day, month and year of birth are one; a person id or the representative reads the same', () => {
    expect(payoutRequirements(['individual.dob.day', 'individual.dob.month', 'individual.dob.year', 'tos_acceptance.date', 'tos_acceptance.ip'], en)).toEqual(['Add your date of birth', 'Accept the payment provider’s terms']);
    expect(payoutRequirements(['person_1AbCdE.first_name', 'representative.last_name', 'representative.relationship.title'], en)).toEqual(['Add your full name', 'Add your role in the company']);
    expect(payoutRequirements(['company.tax_id', 'company.owners_provided', 'company.address.city', 'business_profile.mcc'], sv)).toEqual(['Lägg till företagets organisationsnummer', 'Lägg till företagets ägare och styrelse', 'Lägg till uppgifter om din verksamhet', 'Berätta vad för slags saker du säljer']);
  });

  test('an unknown code is "more details needed", once, after the known ones, and never the code itself', () => {
    const lines = payoutRequirements(['interv_bogus.thing', 'external_account', 'something_new'], en);
    expect(lines).toEqual(['Add the bank account your money is paid to', 'More details needed — continue the setup']);
    expect(lines.join(' ')).not.toMatch(/bogus|something_new|_/);
    expect(payoutRequirements(['individual.something_new'], de)).toEqual(['Weitere Angaben nötig — setze die Einrichtung fort']);
  });

  test('every text exists in every language (no English fallbacks)', () => {
    for (const key of Object.keys(en) as (keyof typeof en)[]) {
      expect(sv[key]).not.toBe(en[key]);
      expect(de[key]).not.toBe(en[key]);
    }
  });
});
