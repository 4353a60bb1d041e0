/**
 * Reads the spec (docs/spec/headless-marketplace-api.md) into what the OpenAPI document can be
 * compared with: the endpoint tables (method, path, auth, inputs, success status, the other
 * statuses a row names, inline response shapes), the resources' field tables, the shape tables and
 * the one-line shapes (`Booking: …`), each field with what the spec says of it (required, type,
 * format, enum, bounds, default). Plain markdown reading: no knowledge of this API's code.
 */

import { describe, leadingNames, parseInlineObject, parseItems, splitTop, type SpecField } from './spec-fields.js';

export type { SpecField } from './spec-fields.js';

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
