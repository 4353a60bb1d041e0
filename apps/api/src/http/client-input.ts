import { duplicateKeyPath, repeatsAKey, MAX_JSON_DEPTH, nestingDepth, textErrors, type FieldError as RestFieldError } from '@hm/rest';
import { DomainError, ValidationError, type FieldError } from '@hm/contract/problems';
import { shownValue } from '@hm/contract/trpc';

/**
 * A JSON body as any endpoint takes it (the checks themselves are @hm/rest's text.ts): nested at
 * most MAX_JSON_DEPTH levels, checked on the text before parsing; valid JSON, no object repeating a key
 * (400: JSON.parse would keep the last silently); and, unless
 * `checkText: false`, every string text (no NUL, no lone surrogate). The /v1 operations leave the
 * text check to the dispatcher, which lists it with every other invalid field.
 * `what` names the input in messages ("The body"); `location` prefixes field locations ("body").
 */
export function parseClientJson(text: string, what: string, location: string, checkText = true): unknown {
  if (nestingDepth(text) > MAX_JSON_DEPTH) {
    throw new DomainError('malformed_request', `${what} is JSON nested deeper than ${MAX_JSON_DEPTH} levels; send flatter data.`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new DomainError('malformed_request', `${what} is not valid JSON: ${(e as Error).message}`);
  }
  const duplicate = repeatsAKey(text, value) ? duplicateKeyPath(text) : undefined;
  if (duplicate) {
    const at = [location, ...duplicate].join('.');
    throw new DomainError('malformed_request', `${what} has the key ${at} twice; send each key once.`, { errors: [{ location: at, message: 'Duplicate key.', value: null }] });
  }
  const errors = checkText ? textErrors(value, location) : [];
  if (errors.length) throw new ValidationError(shown(errors));
  return value;
}

/** What a problem may show of values the client sent (secrets never: `shownValue`), by where they were sent. */
export function shown(errors: RestFieldError[]): FieldError[] {
  return errors.map((e) => ({ ...e, value: shownValue(e.location.split('.').slice(1), e.value) }));
}
