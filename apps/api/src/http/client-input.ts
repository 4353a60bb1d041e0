import { DomainError, ValidationError, type FieldError } from '@hm/domain/errors';
import { shownValue } from '@hm/domain/trpc';

/**
 * Checks on client input that hold for every endpoint, before any schema sees it:
 * - JSON is nested at most MAX_JSON_DEPTH levels (checked on the text, without recursion, before
 *   parsing): validators, fingerprints and loggers walk values recursively, and no request of this
 *   API nests deeper than a few levels;
 * - no string contains NUL (U+0000): Postgres text cannot hold it, and no field means it.
 */
export const MAX_JSON_DEPTH = 32;
export const NUL_MESSAGE = 'Must not contain NUL characters (\\u0000).';

/** `what` names the input in messages ("The body"); `location` prefixes field locations ("body"). */
export function parseClientJson(text: string, what: string, location: string): unknown {
  if (nestingDepth(text) > MAX_JSON_DEPTH) {
    throw new DomainError('malformed_request', `${what} is JSON nested deeper than ${MAX_JSON_DEPTH} levels; send flatter data.`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new DomainError('malformed_request', `${what} is not valid JSON: ${(e as Error).message}`);
  }
  const errors = nulErrors(value, location);
  if (errors.length) throw new ValidationError(errors);
  return value;
}

/** The deepest `[`/`{` nesting in JSON text, brackets inside strings ignored. One pass, no recursion. */
export function nestingDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) max = Math.max(max, ++depth);
    else if (c === 0x5d || c === 0x7d) depth--;
  }
  return max;
}

/** Every string (and object key) of a parsed value that contains NUL, in document order. */
export function nulErrors(root: unknown, location: string): FieldError[] {
  const errors: FieldError[] = [];
  const stack: { value: unknown; path: string[] }[] = [{ value: root, path: [] }];
  while (stack.length) {
    const { value, path } = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) errors.push(nulError(location, path, value));
    } else if (value !== null && typeof value === 'object') {
      const children: { value: unknown; path: string[] }[] = [];
      for (const [key, child] of Object.entries(value)) {
        if (key.includes('\u0000')) children.push({ value: key, path: [...path, key] }); // the key itself, reported where it is
        if (typeof child === 'string' || (child !== null && typeof child === 'object')) children.push({ value: child, path: [...path, key] });
      }
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
    }
  }
  return errors;
}

/** Query parameters (a value, or the values of a repeated name) that contain NUL: one error per name. */
export function queryNulErrors(query: Record<string, unknown>): FieldError[] {
  return Object.entries(query).flatMap(([name, raw]) => {
    const bad = [name, ...(Array.isArray(raw) ? raw : [raw])].find((v) => typeof v === 'string' && v.includes('\u0000'));
    return bad === undefined ? [] : [nulError('query', [name], bad)];
  });
}

/** Parameters of a route template (`/catalog-terms/{kind}/{slug}`) whose decoded text contains NUL. */
export function pathNulErrors(template: string, path: string): FieldError[] {
  const parts = path.split('/');
  return template.split('/').flatMap((segment, i) => {
    const name = /^\{(.+)\}$/.exec(segment)?.[1];
    if (!name) return [];
    let value: string;
    try {
      value = decodeURIComponent(parts[i] ?? '');
    } catch {
      return []; // not percent-encoding: the route's own validation answers
    }
    return value.includes('\u0000') ? [nulError('path', [name], value)] : [];
  });
}

function nulError(location: string, path: string[], value: string): FieldError {
  return { location: [location, ...path].join('.'), message: NUL_MESSAGE, value: shownValue(path, value) };
}
