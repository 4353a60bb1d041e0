/**
 * The spec's field descriptions read into what a schema can be compared with (spec-tables.ts reads
 * the tables they stand in): a field's type, format, enum, bounds and default from its words, and
 * the inline item lists (`` `a`*, `b` ``) and objects (`{items*: Listing[], …}`).
 */

export interface SpecField {
  name: string;
  required: boolean;
  /** `string`, `integer`, `number`, `boolean`, `array`, `map`, or a shape name (`Money`, `Link` …) */
  type?: string;
  /** the shape or primitive of an array's items */
  items?: string;
  /** a map's keys the spec names (`urls` … with keys `thumb`, `medium`, `large`) */
  keys?: string[];
  format?: 'date-time' | 'date' | 'email';
  enum?: string[];
  min?: number;
  max?: number;
  default?: string | number | boolean;
  /** the spec's words, for the mismatch table */
  text: string;
}

/** Splits on `sep` outside parentheses, braces, brackets and backticks. */
export function splitTop(text: string, sep: RegExp): string[] {
  const out: string[] = [];
  let depth = 0;
  let tick = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '`') tick = !tick;
    else if (!tick && '({['.includes(c)) depth++;
    else if (!tick && ')}]'.includes(c)) depth = Math.max(0, depth - 1);
    else if (!tick && depth === 0) {
      sep.lastIndex = 0;
      const m = sep.exec(text.slice(i));
      if (m && m.index === 0) {
        out.push(text.slice(start, i));
        start = i + m[0].length;
        i = start - 1;
      }
    }
  }
  out.push(text.slice(start));
  return out.map((s) => s.trim()).filter(Boolean);
}

const numberOf = (s: string) => Number(s.replace(/\s/g, ''));

/**
 * What a field's type and notes say: `string (date-time)`, `integer >= 0`, `one of a, b`, `max 60`,
 * `1..60`, `1 to 8`, `up to 2`, `(default X)`, `1 when omitted`. `type` comes from a type column
 * when the table has one.
 */
export function describe(field: SpecField, text: string, type?: string) {
  const t = (type ?? text).trim();
  const words = text.replace(/`/g, '');
  const lead = t.replace(/`/g, '').replace(/^\((?=(string|integer|boolean)\b)/, '');
  let m: RegExpExecArray | null;
  if (/^`?\{.*\}`?\s*\[\]/.test(t)) {
    field.type = 'array';
    field.items = 'object';
  }
  else if (/^`?\{/.test(t)) field.type = 'object';
  else if ((m = /^([A-Za-z]+)\[\]/.exec(lead))) {
    field.type = 'array';
    field.items = m[1];
  }
  else if ((m = /^map of (\w+)/.exec(lead))) {
    field.type = 'map';
    field.items = m[1];
  }
  else if (/^map with\b/.test(lead)) field.type = 'map';
  else if (/^one of\b/.test(lead) || /^\(`?\w+`? or `?\w+`?\)/.test(lead)) field.type = 'string';
  else if (/^(string|strings|free-text string)\b/.test(lead)) field.type = 'string';
  else if (/^integers?\b/.test(lead)) field.type = 'integer';
  else if (/^number\b/.test(lead)) field.type = 'number';
  else if (/^boolean\b/.test(lead)) field.type = 'boolean';
  else if (/^date-time\b/.test(lead)) {
    field.type = 'string';
    field.format = 'date-time';
  }
  else if (/^YYYY-MM-DD\b/.test(lead)) {
    field.type = 'string';
    field.format = 'date';
  }
  else if ((m = /^([A-Z][A-Za-z]+)\b/.exec(lead)) && !/^(ISO|BCP|RFC|UUID|YYYY)/.test(m[1]!)) field.type = m[1];
  if (/\(date-time\)/.test(lead)) field.format = 'date-time';
  const keys = /(?:with keys|map with) (.*)$/.exec(text)?.[1];
  if (keys) field.keys = [...keys.replace(/\([^)]*\)/g, '').matchAll(/`([^`]+)`/g)].map((x) => x[1]!);
  if (/\(email\)|^string, email|^email\b/.test(lead) || /\bemail, max/.test(words)) field.format = 'email';
  // enum: "one of `a`, `b`" or "(`a` or `b`)" or "`a` default, or `b`"
  const enumText = /one of ((?:`[^`]+`(?: \([^)]*\))?(?:,\s*|\s+or\s+)?)+)/.exec(text)?.[1]?.replace(/\([^)]*\)/g, '') ?? /^\(((?:`[^`]+`(?:,\s*|\s+or\s+)?)+)\)/.exec(text.trim())?.[1] ?? /^\(?(`[^`]+` default, or `[^`]+`)/.exec(text.trim())?.[1];
  if (enumText) field.enum = [...enumText.matchAll(/`([^`]+)`/g)].map((x) => x[1]!);
  else if ((m = /^((?:[a-z_]+\/)+[a-z_]+)$/.exec(lead))) {
    field.type = 'string';
    field.enum = m[1]!.split('/');
  }
  if ((m = /(?:^|[\s(:,;])(?<!ISO )(\d[\d ]*)\s*(?:\.\.|-|to)\s*(\d[\d ]*)\b/.exec(words))) {
    field.min = numberOf(m[1]!);
    field.max = numberOf(m[2]!);
  }
  if ((m = />=\s*(\d+)/.exec(words))) field.min = Number(m[1]);
  if ((m = /\b(?:max|up to)\s+(\d+)/.exec(words))) field.max = Number(m[1]);
  if ((m = /default,? (\w[\w/.-]*)/.exec(words)) && !['language', 'when', 'with', 'without', 'or'].includes(m[1]!)) field.default = literal(m[1]!);
  if ((m = /\(default (\w[\w/.-]*)\)/.exec(words)) && !['with', 'without'].includes(m[1]!)) field.default = literal(m[1]!);
  if ((m = /\b(\w+) when omitted/.exec(words)) && /^\d+$/.test(m[1]!)) field.default = literal(m[1]!);
  if ((m = /^(\w+) default\b/.exec(words.replace(/^\(/, '')))) field.default = literal(m[1]!);
}

const literal = (s: string): string | number | boolean => (/^\d+$/.test(s) ? Number(s) : s === 'true' ? true : s === 'false' ? false : s);

/** `` `a`*, `b` `` at the start of an item: the names and whether each is required. */
export function leadingNames(item: string): { names: { name: string; required: boolean }[]; rest: string } {
  const names: { name: string; required: boolean }[] = [];
  let rest = item.trim();
  for (;;) {
    const m = /^`([a-z_][a-z0-9_]*)\)?`(\*)?\s*(?:,\s*)?/.exec(rest);
    if (!m) break;
    names.push({ name: m[1]!, required: Boolean(m[2]) });
    rest = rest.slice(m[0].length);
    if (!rest.startsWith('`')) break;
  }
  return { names, rest: rest.trim() };
}

/**
 * One item list (`` `id`* string; `status`* one of `a`, `b`; `width`, `height` integers ``):
 * items are split at `;`, and at `,` before a new field name (not inside an enum); names without
 * a type of their own take the plural type that follows (`` `id`*, `name`* strings ``).
 */
export function parseItems(text: string): SpecField[] {
  const fields: SpecField[] = [];
  for (const item of splitTop(text.replace(/\.$/, ''), /;\s*/g)) {
    const segments: string[] = [];
    for (const part of splitTop(item, /,\s*/g)) {
      const prev = segments.at(-1);
      // the values of "one of `a`, `b` (…)" and the keys of "map of string with keys `a` (…), `b`" go on
      const inList = prev !== undefined && /(one of|with keys|map with) `/.test(prev) && /^`[^`*]+`(?!\*)/.test(part);
      if (prev !== undefined && (inList || !part.startsWith('`') || /^`\{/.test(part))) segments[segments.length - 1] = `${prev}, ${part}`;
      else segments.push(part);
    }
    const pending: SpecField[] = [];
    for (const segment of segments) {
      const { names, rest } = leadingNames(segment);
      if (!names.length) continue;
      const group = names.map(({ name, required }) => ({ name, required, text: segment }) as SpecField);
      for (const f of group) describe(f, rest);
      // a plural type or an "each" covers the names before it: "`id`*, `name`* strings", "`a`, `b` (max 100 each)"
      const shared = /^(strings|integers)\b/.test(rest) || /\d each\b/.test(rest);
      if (shared) for (const p of pending) describe(p, rest);
      if (!shared && group.every((f) => !f.type)) {
        pending.push(...group);
        continue;
      }
      fields.push(...pending.splice(0), ...group);
    }
    fields.push(...pending);
  }
  return fields;
}

/** `{items*: Listing[], next_cursor, total*: integer}` → fields. */
export function parseInlineObject(text: string): SpecField[] {
  const inner = /^`?\{(.*)\}`?/.exec(text.trim())?.[1];
  if (inner === undefined) return [];
  return splitTop(inner, /,\s*/g).map((part) => {
    const m = /^([a-z_]+)(\*)?(?::\s*(.*))?$/.exec(part.trim());
    const field: SpecField = { name: m?.[1] ?? part, required: Boolean(m?.[2]), text: part };
    if (m?.[3]) describe(field, m[3]);
    return field;
  });
}
