/**
 * Checks on client input that hold for every endpoint, before any schema sees it:
 * - JSON is nested at most MAX_JSON_DEPTH levels (checked on the text, without recursion, before
 *   parsing): validators, fingerprints and loggers walk values recursively, and no request of this
 *   API nests deeper than a few levels;
 * - every string is text (`badText`): no NUL (U+0000), no lone UTF-16 surrogate (`"\\udfff"`).
 *   Postgres text and json cannot hold either, and no field means them.
 *
 * Values are reported as sent; the app decides what a problem may show of them (secrets).
 */
export interface FieldError {
  /** `body.price.amount`, `query.limit`, `path.id`; `body` for the body as a whole */
  location: string;
  message: string;
  value: unknown;
}

export const MAX_JSON_DEPTH = 32;
export const NUL_MESSAGE = 'Must not contain NUL characters (\\u0000).';
export const SURROGATE_MESSAGE = 'Must be valid Unicode text (no lone surrogates).';

/** \`application/json\` and \`application/<x>+json\`, any case, with or without parameters (RFC 9110). */
export const JSON_MEDIA_TYPE = /^application\/([a-z0-9.!#$&^_-]+\+)?json\s*(;.*)?$/i;

/** Why a string is not text a field can hold, or undefined when it is. */
export function badText(s: string): string | undefined {
  if (s.includes('\u0000')) return NUL_MESSAGE;
  return s.isWellFormed() ? undefined : SURROGATE_MESSAGE;
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

/**
 * Whether valid JSON text repeats a key in some object, given its parsed value: one pass counting
 * each object's keys in the text (no key is read or kept), compared with the parsed objects' key
 * counts in the same (closing) order. Only when they differ does `duplicateKeyPath` look for which.
 */
export function repeatsAKey(text: string, parsed: unknown): boolean {
  const counts: number[] = [];
  const open: number[] = []; // key counts of the objects open at this point; -1 for an array
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      if (expectKey) {
        open[open.length - 1]!++;
        expectKey = false;
      }
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x7b) {
      open.push(0);
      expectKey = true;
    } else if (c === 0x5b) {
      open.push(-1);
      expectKey = false;
    } else if (c === 0x7d || c === 0x5d) {
      const n = open.pop()!;
      if (n >= 0) counts.push(n);
      expectKey = false;
    } else if (c === 0x2c) expectKey = open.at(-1)! >= 0;
  }
  // the parsed objects' key counts in closing order (post-order, document order)
  const parsedCounts: number[] = [];
  const stack: { value: unknown; done: boolean }[] = [{ value: parsed, done: false }];
  while (stack.length) {
    const top = stack.pop()!;
    const v = top.value;
    if (v === null || typeof v !== 'object') continue;
    if (top.done) {
      if (!Array.isArray(v)) parsedCounts.push(Object.keys(v).length);
      continue;
    }
    stack.push({ value: v, done: true });
    const children = Array.isArray(v) ? v : Object.values(v);
    for (let i = children.length - 1; i >= 0; i--) if (children[i] !== null && typeof children[i] === 'object') stack.push({ value: children[i], done: false });
  }
  if (counts.length !== parsedCounts.length) return true;
  for (let i = 0; i < counts.length; i++) if (counts[i] !== parsedCounts[i]) return true;
  return false;
}

type Frame = { keys: Set<string>; key: string; expectKey: boolean } | { index: number };

/**
 * The path of the first key an object of valid JSON text repeats (`["price", "amount"]`), or
 * undefined when none does. JSON.parse keeps the last of two equal keys silently, so what a client
 * meant would be guessed; one pass over the text, no recursion (docs/decisions.md).
 */
export function duplicateKeyPath(text: string): string[] | undefined {
  const stack: Frame[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const top = stack.at(-1);
    if (c === 0x22) {
      let j = i + 1;
      let escaped = false;
      for (; j < text.length; j++) {
        const d = text.charCodeAt(j);
        if (d === 0x5c) {
          escaped = true;
          j++;
        } else if (d === 0x22) break;
      }
      if (top && 'keys' in top && top.expectKey) {
        const raw = text.slice(i + 1, j);
        const key = escaped ? (JSON.parse(`"${raw}"`) as string) : raw;
        if (top.keys.has(key)) return [...pathOf(stack.slice(0, -1)), key];
        top.keys.add(key);
        top.key = key;
        top.expectKey = false;
      }
      i = j;
    } else if (c === 0x7b) stack.push({ keys: new Set(), key: '', expectKey: true });
    else if (c === 0x5b) stack.push({ index: 0 });
    else if (c === 0x7d || c === 0x5d) stack.pop();
    else if (c === 0x2c && top) {
      if ('keys' in top) top.expectKey = true;
      else top.index++;
    }
  }
  return undefined;
}

function pathOf(frames: Frame[]): string[] {
  return frames.map((f) => ('keys' in f ? f.key : String(f.index)));
}

/** Every string (and object key) of a parsed value that is not text (`badText`), in document order. */
export function textErrors(root: unknown, location: string): FieldError[] {
  const errors: FieldError[] = [];
  const stack: { value: unknown; path: string[] }[] = [{ value: root, path: [] }];
  while (stack.length) {
    const { value, path } = stack.pop()!;
    if (typeof value === 'string') {
      const message = badText(value);
      if (message) errors.push(textError(location, path, value, message));
    } else if (value !== null && typeof value === 'object') {
      const children: { value: unknown; path: string[] }[] = [];
      for (const [key, child] of Object.entries(value)) {
        if (badText(key)) children.push({ value: key, path: [...path, key] }); // the key itself, reported where it is
        if (typeof child === 'string' || (child !== null && typeof child === 'object')) children.push({ value: child, path: [...path, key] });
      }
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
    }
  }
  return errors;
}

/** Query parameters (a value, or the values of a repeated name) that are not text: one error per name. */
export function queryTextErrors(query: Record<string, unknown>): FieldError[] {
  return Object.entries(query).flatMap(([name, raw]) => {
    const values = [name, ...(Array.isArray(raw) ? raw : [raw])].filter((v): v is string => typeof v === 'string');
    const bad = values.find((v) => badText(v));
    return bad === undefined ? [] : [textError('query', [name], bad, badText(bad)!)];
  });
}

/** Path parameters (percent-decoded) that are not text. */
export function pathTextErrors(params: Record<string, string>): FieldError[] {
  return Object.entries(params).flatMap(([name, value]) => {
    const message = badText(value);
    return message ? [textError('path', [name], value, message)] : [];
  });
}

function textError(location: string, path: string[], value: string, message: string): FieldError {
  return { location: [location, ...path].join('.'), message, value };
}
