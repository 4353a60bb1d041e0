/**
 * Reads the spec (docs/spec/headless-marketplace-api.md) into what the OpenAPI document can be
 * compared with: the endpoint tables (method, path, auth, inputs, success status, the other
 * statuses a row names, inline response shapes), the resources' field tables, the shape tables and
 * the one-line shapes (`Booking: …`), each field with what the spec says of it (required, type,
 * format, enum, bounds, default). Plain markdown reading: no knowledge of this API's code.
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

export interface SpecShape {
  /** the spec's name (`Listing`, `Booking`, `Listing input`) */
  name: string;
  fields: SpecField[];
}

export interface SpecEndpoint {
  method: string;
  /** without /v1 */
  path: string;
  auth: 'K' | 'S' | 'N';
  success: number;
  /** other statuses the row names (409 if the address is in use …) */
  statuses: number[];
  query: SpecField[];
  pathParams: SpecField[];
  body: SpecField[];
  /** the body is one of the spec's shapes (ListingInput, PlaceOrder), or none at all */
  bodyShape?: string;
  noInput: boolean;
  /** `{items*: Listing[], next_cursor}` of the response, or the shape it names */
  response: SpecField[];
  responseShape?: string;
}

export interface Spec {
  shapes: Map<string, SpecShape>;
  endpoints: SpecEndpoint[];
  /** `POST /sessions` … : the endpoints that answer 429 with Retry-After (Limits, Events) */
  rateLimited: string[];
  /** the user-facing order transitions */
  userTransitions: string[];
  /** "Clients must ignore fields (and block types) they do not know" */
  responsesOpen: boolean;
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
function leadingNames(item: string): { names: { name: string; required: boolean }[]; rest: string } {
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

interface Table {
  heading: string;
  header: string[];
  rows: string[][];
}

function tables(markdown: string): Table[] {
  const out: Table[] = [];
  let heading = '';
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith('#')) heading = line.replace(/^#+\s*/, '');
    if (!line.startsWith('|') || !lines[i + 1]?.startsWith('|---')) continue;
    const cells = (l: string) => l.slice(1, l.endsWith('|') ? -1 : undefined).split('|').map((c) => c.trim());
    const table: Table = { heading, header: cells(line), rows: [] };
    for (i += 2; i < lines.length && lines[i]!.startsWith('|'); i++) table.rows.push(cells(lines[i]!));
    out.push(table);
  }
  return out;
}

/** `Booking: ...` and `Site (SiteBody): ...` lines, and `Link: ...` under the content page. */
const ONE_LINE_SHAPES = /^(ListingRules|ShippingTable|Booking|Site|ImageRef|Link)(?: \([A-Za-z]+\))?: (.*)$/;

export function parseSpec(markdown: string): Spec {
  const shapes = new Map<string, SpecShape>();
  const add = (name: string, fields: SpecField[]) => {
    const shape = shapes.get(name) ?? { name, fields: [] };
    for (const f of fields) if (!shape.fields.some((x) => x.name === f.name)) shape.fields.push(f);
    shapes.set(name, shape);
  };
  const endpoints: SpecEndpoint[] = [];
  for (const table of tables(markdown)) {
    const h = table.header.join('|');
    if (h.startsWith('Field|Type')) {
      // "Listing (ListingBody)", "Listing input (ListingInputBody; …)", "Content page" (the block table)
      const name = table.heading === 'Content page' ? 'Block' : table.heading.replace(/\s*\(.*$/, '');
      for (const [fieldCell, type, notes] of table.rows) {
        const names = leadingNames(fieldCell!).names;
        // "`listing`, `listing_id` | Listing, string": one type each
        const types = splitTop(type!, /,\s*/g);
        for (const [i, { name: field, required }] of names.entries()) {
          const own = types.length === names.length ? types[i]! : type!;
          const f: SpecField = { name: field, required, text: `${type} | ${notes}` };
          describe(f, `${own} ${notes}`, own);
          if (name === 'Block') f.required = false;
          add(name, [f]);
        }
      }
    } else if (h.startsWith('Shape|Fields')) {
      for (const [shapeCell, fields] of table.rows) add(shapeCell!.replace(/\s*\(.*$/, ''), parseItems(fields!));
    } else if (h.startsWith('Name|Type|Rule')) {
      // the search parameters of GET /v1/listings
      const fields = table.rows.flatMap(([names, type, rule]) =>
        leadingNames(names!).names.map(({ name }) => {
          const f: SpecField = { name, required: false, text: `${type} | ${rule}` };
          describe(f, `${type} ${rule}`, type);
          return f;
        }),
      );
      add('ListingSearchQuery', fields);
    } else if (h.startsWith('Method|Path')) {
      for (const [method, pathCell, auth, input, response] of table.rows) endpoints.push(endpoint(method!, pathCell!, auth!, input!, response!));
    }
  }
  for (const line of markdown.split('\n')) {
    const m = ONE_LINE_SHAPES.exec(line.trim());
    if (m) add(m[1]!, parseItems(m[2]!));
    // "Block: `id`* (1-40 letters …); `type`* one of …. Optional fields by type:"
    const block = /^Block: (.*?)\. Optional fields by type:/.exec(line.trim());
    if (block) add('Block', parseItems(block[1]!));
  }
  // "Page (PageBody): `slug`* …, `blocks`* Block[] (…), `published_at` date-time, `share_image` ImageRef. PublishedPage: …"
  const page = /^Page \(PageBody\): (.*?)\. PublishedPage: (.*)$/m.exec(markdown);
  if (page) {
    shapes.delete('Page');
    add('Page', parseItems(page[1]!));
    add('PublishedPage', parseItems(page[2]!.replace(/\.$/, '')));
  }
  const quote = /^Quote \(QuoteBody\): (.*)$/m.exec(markdown);
  if (quote) add('Quote', parseItems(quote[1]!));
  const signedIn = /^SignedInOutputBody: `\{(.*)\}`/m.exec(markdown);
  if (signedIn) add('SignedIn', parseInlineObject(`{${signedIn[1]}}`));

  const transitions = /The user-facing transitions are ((?:`[^`]+`(?:, )?)+)/.exec(markdown)?.[1] ?? '';
  const rateLimited = new Set<string>();
  for (const m of markdown.matchAll(/`(POST) (\/v1\/[^`]+)` \(max \d+ per hour/g)) rateLimited.add(`${m[1]} ${m[2]!.slice(3)}`);
  // Limits: "Sign-in | 10 wrong passwords … 429" and "Emailed links (sign-in, reset, confirmation) … 429"
  if (/\| Sign-in \|[^\n]*429/.test(markdown)) rateLimited.add('POST /sessions');
  if (/\| Emailed links \([^)]*confirmation\) \|[^\n]*429/.test(markdown)) {
    const confirm = /\| Email confirmation \| sign-up; `(POST) (\/v1\/[^`]+)`/.exec(markdown);
    if (confirm) rateLimited.add(`${confirm[1]} ${confirm[2]!.slice(3)}`);
  }
  return {
    shapes,
    endpoints,
    rateLimited: [...rateLimited],
    userTransitions: [...transitions.matchAll(/`([^`]+)`/g)].map((m) => m[1]!),
    responsesOpen: /Clients must ignore fields/.test(markdown),
  };
}

function endpoint(method: string, pathCell: string, auth: string, input: string, response: string): SpecEndpoint {
  const path = pathCell.replace(/`/g, '').replace(/^\/v1/, '');
  const pathNames = new Set([...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!));
  const success = Number(/\b([1-5]\d\d)\b/.exec(response)![1]);
  const statuses = [...response.matchAll(/\b([1-5]\d\d)\b/g)].map((m) => Number(m[1])).filter((s) => s !== success);
  const e: SpecEndpoint = { method, path, auth: auth as SpecEndpoint['auth'], success, statuses, query: [], pathParams: [], body: [], noInput: /^(none)?$/.test(input.trim()), response: [] };
  const respText = response.replace(/^\d{3}\s*/, '');
  if (respText.startsWith('`{')) e.response = parseInlineObject(/^`\{.*?\}`/.exec(respText)![0]);
  else if (/^[A-Z]\w+/.test(respText)) e.responseShape = /^[A-Z]\w+/.exec(respText)![0];
  if (e.noInput || /^body is the image bytes/.test(input)) return e;
  const bodyish = method === 'POST' || method === 'PUT' || method === 'PATCH';
  let text = input.replace(/^any of /, '').replace(/;? ?replaces the whole content$/, '');
  // "ListingInput", "same fields as PlaceOrder", "SignUp: …", "PlaceOrder: …"
  const named = /^(?:same fields as )?([A-Z][A-Za-z]+)(?::\s*|$)/.exec(text);
  if (named) {
    e.bodyShape = named[1];
    text = text.slice(named[0].length);
    if (!text) return e;
  }
  if (/^`\{.*\}`/.test(text)) {
    e.body = parseInlineObject(/^`\{.*?\}`/.exec(text)![0]);
    return e;
  }
  // "query `limit` (1..100, default 24), `cursor`", "path `slug` (max 80); query `locale` (…)", "`token`* query (max 100), `currency`"
  for (const group of splitTop(text, /;\s*(?=(?:query|path) `)/g)) {
    const where = /^(query|path) /.exec(group)?.[1];
    const fields = parseItems(group.replace(/^(query|path) /, '').replace(/` query \(/g, '` ('));
    for (const f of fields) {
      if (where === 'path' || pathNames.has(f.name)) e.pathParams.push({ ...f, required: true });
      else if (where === 'query' || !bodyish) e.query.push(f);
      else e.body.push(f);
    }
  }
  return e;
}
