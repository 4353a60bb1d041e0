import { describe, expect, test } from 'vitest';
import { messages } from '../lib/messages';
import { formatMoney, toMajor, toMinor } from '../lib/money';
import { codeMessage, explainProblem, fieldMessage, problemText, unplaced, type ApiProblemBody } from '../lib/problems';
import { RAW_TEXT } from './shop-fixtures.js';

/** Problems as the API sends them (messages copied from the domain's zod mapping and publish checks). */
const problems: Record<string, ApiProblemBody> = {
  tooLong: { status: 422, code: 'validation_failed', detail: 'body.title: Must be at most 140 characters.', errors: [{ location: 'body.title', message: 'Must be at most 140 characters.' }] },
  country: { status: 422, code: 'validation_failed', detail: 'body.location.country: Must be an ISO 3166-1 alpha-2 code in capitals.', errors: [{ location: 'body.location.country', message: 'Must be an ISO 3166-1 alpha-2 code in capitals.' }] },
  search: { status: 422, code: 'validation_failed', detail: 'query.max_price: Too small: expected number to be >=0', errors: [{ location: 'query.max_price', message: 'Too small: expected number to be >=0' }] },
  publish: {
    status: 422,
    code: 'validation_failed',
    detail: 'The request has 5 problems; see errors.',
    errors: [
      { location: 'body.images', message: 'At least 2 processed photos needed to publish; it has 0.' },
      { location: 'body.location.country', message: 'A country is needed to publish.' },
      { location: 'body.delivery', message: 'At least one delivery method (shipping, pickup or buyer_arranged) is needed to publish.' },
      { location: 'body.terms.condition', message: 'Condition is needed to publish.' },
      { location: 'body.shipping_size', message: "Shipping is priced from the marketplace's shipping table: the marketplace team sets the shipping size before it can go on sale." },
    ],
  },
  email: { status: 409, code: 'email_in_use', detail: 'An account with this email address already exists.', errors: [{ location: 'body.email', message: 'Already in use.' }] },
  price: { status: 422, code: 'validation_failed', detail: 'body.price.amount: Must be at most 1000000000000.', errors: [{ location: 'body.price.amount', message: 'Must be at most 1000000000000.' }] },
  pixels: { status: 422, code: 'validation_failed', detail: 'The photo is 9000×9000 pixels (81.0 megapixels); at most 50 megapixels are accepted.', errors: [{ location: '', message: 'At most 50000000 pixels; this one has 81000000.' }] },
  conflict: { status: 409, code: 'conflict', detail: 'A listing has at most 20 photos; delete one to add another.', errors: [] },
  voucher: { status: 422, code: 'validation_failed', detail: 'body.voucher_code: This voucher needs items worth at least 500.00 SEK.', errors: [{ location: 'body.voucher_code', message: 'This voucher needs items worth at least 500.00 SEK.' }] },
  address: { status: 422, code: 'validation_failed', detail: 'body.delivery.address: Required to ship.', errors: [{ location: 'body.delivery.address', message: 'An address is needed to ship.' }] },
  unknown: { status: 418, code: 'teapot_mode', detail: 'body.x_y: teapot_mode is on.', errors: [] },
};

describe('problems in the shopper’s words', () => {
  test('checkout: each voucher rule and the missing address in the page’s language', () => {
    const voucher = (message: string, lang: string) => explainProblem({ ...problems.voucher!, errors: [{ location: 'body.voucher_code', message }] }, lang).errors.voucher_code;
    expect(voucher('There is no voucher with this code.', 'sv')).toBe('Det finns ingen rabattkod med den koden.');
    expect(voucher('This voucher can be used from 2031-03-04.', 'en')).toBe('This voucher cannot be used yet.');
    expect(voucher('This voucher expired on 2031-03-03.', 'de')).toBe('Dieser Gutschein ist abgelaufen.');
    expect(voucher('This voucher needs items worth at least 500.00 SEK.', 'en')).toBe('Your order is too small for this voucher.');
    expect(voucher('You have used this voucher already; it can be used once per buyer.', 'sv')).toBe('Du har redan använt rabattkoden.');
    expect(voucher('This voucher has been used up.', 'de')).toBe('Dieser Gutschein ist aufgebraucht.');
    expect(explainProblem(problems.address, 'sv', (p) => p.replace(/^delivery\.address$/, 'postal_code')).errors).toEqual({ postal_code: 'Fyll i leveransadressen.' });
  });


  test.each(['en', 'sv', 'de'])('no API or zod wording reaches a person in %s', (lang) => {
    for (const [name, p] of Object.entries(problems)) {
      const { message, errors } = explainProblem(p, lang);
      const shown = [message, ...Object.values(errors), ...unplaced(errors, [], lang)].join('\n');
      expect(shown, name).not.toMatch(RAW_TEXT);
      expect(shown, name).not.toMatch(/alpha-2|teapot|x_y|max_price|>=/);
    }
  });

  test('Swedish field messages, by what the field is and which rule failed', () => {
    expect(explainProblem(problems.tooLong, 'sv').errors).toEqual({ title: 'Använd högst 140 tecken.' });
    expect(explainProblem(problems.country, 'sv').errors.location).toBe('Välj ett land i listan.');
    expect(explainProblem(problems.price, 'sv').errors.price).toBe('Ange ett belopp som 250 eller 1 250,50.');
    const publish = explainProblem(problems.publish, 'sv', (path) => (path.startsWith('location.') ? path.split('.')[1]! : path.split('.')[0]!));
    expect(publish.message).toBe('Några fält behöver ses över.');
    expect(publish.errors).toMatchObject({
      images: 'Lägg till minst 2 foton för att publicera (klara nu: 0).',
      country: 'Välj landet där varan finns för att publicera.',
      delivery: 'Välj minst ett sätt för varan att nå köparen för att publicera.',
      terms: 'Välj ett alternativ för att publicera.',
    });
    expect(publish.errors.shipping_size).toContain('marknadsplatsens team anger varans storlek');
  });

  test('a problem about the whole input, and codes, have sentences of their own', () => {
    expect(explainProblem(problems.pixels, 'de').message).toBe('Dieses Foto hat zu viele Pixel: höchstens 50 Megapixel.');
    expect(explainProblem(problems.email, 'en')).toMatchObject({ message: 'There is already an account with this email address. Sign in, or reset your password.', errors: { email: 'There is already an account with this address.' } });
    expect(codeMessage('invalid_session', 'sv')).toBe('Du har loggats ut. Logga in igen.');
    expect(codeMessage(undefined, 'de')).toBe('Der Shop erreicht seinen Dienst gerade nicht. Bitte versuche es gleich noch einmal.');
  });

  test('the API’s detail is the fallback in English only, and only when it reads as a sentence', () => {
    expect(codeMessage('conflict', 'en', problems.conflict!.detail)).toBe('A listing has at most 20 photos; delete one to add another.');
    expect(codeMessage('conflict', 'sv', problems.conflict!.detail)).toBe('Det går inte längre: något har ändrats under tiden. Ladda om sidan och försök igen.');
    expect(codeMessage('teapot_mode', 'en', problems.unknown!.detail)).toBe('Something went wrong. Please try again.');
    expect(codeMessage('teapot_mode', 'en', 'The kettle is busy.')).toBe('The kettle is busy.');
    expect(fieldMessage('attributes.colour', 'Must be equal to one of the allowed values.', 'en')).toBe('Must be equal to one of the allowed values.');
    expect(fieldMessage('attributes.colour', 'Must be equal to one of the allowed values.', 'sv')).toBe('Kontrollera det här.');
  });

  test('a minimum of 1 character reads "fill this in"; 2 and more say the number', () => {
    expect(fieldMessage('title', 'Must be at least 1 character long.', 'en')).toBe('Please fill this in.');
    expect(fieldMessage('title', 'Must be at least 1 characters long.', 'sv')).not.toMatch(/1 tecken/);
    expect(fieldMessage('password', 'Must be at least 2 characters long.', 'en')).toBe('Use at least 2 characters.');
    expect(fieldMessage('password', 'Must be more than 1 characters long.', 'en')).toBe('Use at least 2 characters.');
  });

  test('a failed search names its filter in the page’s language', () => {
    const error = { data: { problem: problems.search } };
    expect(problemText(error, 'sv')).toBe('Några fält behöver ses över. Högsta pris: Ange ett belopp som 250 eller 1 250,50.');
  });
});

describe('money typed and read in the page’s language', () => {
  test('amounts as people type them; an ambiguous one is refused, never read a hundred times off', () => {
    expect(toMinor('1 250,50', 'SEK', 'sv')).toBe(125050);
    expect(toMinor('1250.50', 'SEK', 'sv')).toBe(125050);
    expect(toMinor('1,250.50', 'SEK', 'en')).toBe(125050);
    expect(toMinor('1.250,50', 'EUR', 'de')).toBe(125050);
    expect(toMinor('1250,50', 'SEK', 'en')).toBeUndefined();
    expect(toMinor('12.50', 'EUR', 'de')).toBeUndefined();
    expect(toMinor('12.345', 'EUR', 'en')).toBeUndefined();
    expect(toMinor('tolv', 'SEK', 'sv')).toBeUndefined();
    expect(toMinor('100', 'JPY', 'en')).toBe(100);
  });

  test('amounts shown back in the form and on pages', () => {
    expect(toMajor(125050, 'SEK', 'sv')).toBe('1250,50');
    expect(toMajor(450000, 'SEK', 'en')).toBe('4500');
    expect(formatMoney({ amount: 120000, currency: 'SEK' }, 'sv')).toBe('1\u00a0200\u00a0kr');
    expect(formatMoney({ amount: 10435, currency: 'EUR' }, 'en')).toBe('€104.35');
  });
});

describe('texts per language', () => {
  test('German has the seller’s pages and the product page; what it lacks is English', () => {
    expect(messages('de').listings.publish).toBe('Veröffentlichen');
    expect(messages('de').orders.buy).toBe('Kaufen');
    expect(messages('de').orders.order.states.purchased).toBe('Bezahlt');
    expect(messages('de').nav.listings).toBe('Verkaufen');
    expect(messages('de').signUp.title).toBe(messages('en').signUp.title);
    expect(messages('de-AT').listings.status.published).toBe('Im Verkauf');
  });
});
