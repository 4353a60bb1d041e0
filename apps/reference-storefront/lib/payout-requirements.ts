/**
 * What the payment provider still needs from a seller (`due` on GET /v1/me/payouts: Stripe's
 * requirement names such as `external_account`, `individual.dob.day`, `person_1A2b.address.city`,
 * `company.tax_id`) in plain words. Several names can come to one line (day, month and year of
 * birth); a name no rule knows is "More details needed — continue the setup", never the code.
 */
export type Need = 'bank' | 'terms' | 'website' | 'whatYouSell' | 'business' | 'businessType' | 'name' | 'birth' | 'address' | 'email' | 'phone' | 'idNumber' | 'idDocument' | 'addressDocument' | 'companyName' | 'companyTaxId' | 'companyPeople' | 'role' | 'more';

function needOf(code: string): Need {
  if (code === 'external_account' || code.startsWith('external_account.')) return 'bank';
  if (code.startsWith('tos_acceptance.')) return 'terms';
  if (code === 'business_type') return 'businessType';
  if (code === 'business_profile.url' || code === 'business_profile.product_description') return 'website';
  if (code === 'business_profile.mcc') return 'whatYouSell';
  if (code.startsWith('business_profile.')) return 'business';
  if (code === 'company.name') return 'companyName';
  if (code === 'company.tax_id' || code === 'company.registration_number' || code === 'company.vat_id') return 'companyTaxId';
  if (/^company\.(owners|directors|executives)_provided$/.test(code) || /^(owners|directors|executives)\./.test(code)) return 'companyPeople';
  // the rest names a person (individual., representative., person_…) or the company, then a field
  const field = code.replace(/^(individual|representative|company|person_\w+)\./, '');
  if (field === code && !code.startsWith('company.')) return 'more';
  if (field === 'first_name' || field === 'last_name' || field.startsWith('full_name')) return 'name';
  if (field.startsWith('dob.')) return 'birth';
  if (field.startsWith('address.') || field.startsWith('registered_address.')) return code.startsWith('company.') ? 'business' : 'address';
  if (field === 'email') return 'email';
  if (field === 'phone') return 'phone';
  if (field === 'id_number' || field === 'ssn_last_4') return 'idNumber';
  if (field === 'verification.document' || field.startsWith('verification.document.')) return code.startsWith('company.') ? 'business' : 'idDocument';
  if (field.startsWith('verification.additional_document')) return 'addressDocument';
  if (field.startsWith('relationship.')) return 'role';
  return 'more';
}

/** The lines to show for what is due, in order of first appearance, each once. */
export function payoutRequirements(due: readonly string[], texts: Record<Need, string>): string[] {
  const needs = [...new Set(due.map(needOf))];
  // "more details" last: the specific asks come first
  needs.sort((a, b) => Number(a === 'more') - Number(b === 'more'));
  return needs.map((n) => texts[n]);
}
