import { orderMessagesByLang } from './messages-orders';
import { problemMessages, type ProblemMessages } from './messages-problems';

/**
 * The API's problems in the shopper's words. A problem's `code` and each error's `location` say
 * what went wrong; the API's English `message`s are only read to learn which rule failed (and the
 * numbers in it), never shown as they are — except in English, as the last fallback, and only when
 * they read like a sentence for people (no `body.x`, `snake_case` or standards jargon).
 */

export interface ApiProblemBody {
  status: number;
  code: string;
  detail: string;
  errors: { location: string; message: string }[];
}

/** The RFC 9457 problem inside a tRPC error, when the API answered at all. */
export function problemOf(error: unknown): ApiProblemBody | undefined {
  return (error as { data?: { problem?: ApiProblemBody } | null })?.data?.problem ?? undefined;
}

/** `Retry-After` (seconds) of the API's answer inside a tRPC error (a 429 or 503), when it said. */
export function retryAfterOf(error: unknown): number | undefined {
  const header = (error as { meta?: { response?: { headers?: Headers } } } | null)?.meta?.response?.headers?.get?.('retry-after');
  return header && /^\d+$/.test(header) ? Number(header) : undefined;
}

/** A form field for a problem path (`location.country` → `country`); by default its first segment. */
export type FieldOf = (path: string) => string;
const firstSegment: FieldOf = (path) => path.split('.')[0]!;

/** `body.location.country` → `location.country`; `body` (the input as a whole) → ``. */
export const plainPath = (location: string) => location.replace(/^(body|query|path)(\.|$)/, '');

const TECHNICAL = /\b(body|query|path)\.|\b[a-z]+_[a-z_]+\b|ISO \d|expected |Too (big|small)|Invalid (input|option)|JSON|UUID/i;
const readable = (text: string | undefined): text is string => !!text && !TECHNICAL.test(text);

const GROUPS: Record<string, keyof ProblemMessages['codes']> = {
  api_key_required: 'setup',
  invalid_api_key: 'setup',
  publishable_key_not_allowed: 'setup',
  session_required: 'session',
  invalid_session: 'session',
  idempotency_request_in_progress: 'in_progress',
  invalid_idempotency_key: 'malformed_request',
  idempotency_key_reused: 'malformed_request',
  method_not_allowed: 'malformed_request',
  not_acceptable: 'malformed_request',
  headers_too_large: 'malformed_request',
};

/** Codes whose `detail` says more than our sentence can (which listing state, which limit): English keeps it. */
const SPECIFIC = new Set(['conflict', 'forbidden']);

/** One sentence for a whole problem, by its code. */
export function codeMessage(code: string | undefined, lang: string, detail?: string): string {
  const t = problemMessages(lang).codes;
  if (!code) return t.unreachable;
  const english = lang === 'en' || lang.startsWith('en-');
  if (english && SPECIFIC.has(code) && readable(detail)) return detail;
  const key = GROUPS[code] ?? (code in t ? (code as keyof typeof t) : undefined);
  if (key) return t[key];
  return english && readable(detail) ? detail : t.other;
}

function number(n: string, lang: string): string {
  return new Intl.NumberFormat(lang).format(Number(n));
}

/** What publishing still needs, by where the API says it is missing. */
function publishMessage(path: string, apiMessage: string, t: ProblemMessages): string {
  const p = t.publish;
  if (path === 'title') return p.title;
  if (path === 'images') {
    const [, need = '1', has = '0'] = /(\d+)\D+?(\d+)/.exec(apiMessage) ?? [];
    return p.images(need, has);
  }
  if (path === 'location.country') return p.country;
  if (path === 'price') return p.price;
  if (path === 'delivery') return p.delivery;
  if (path === 'category_id') return p.category;
  if (path.startsWith('terms.')) return p.term;
  if (path === 'shipping_size') return p.shippingSize;
  if (path === 'delivery.shipping.price') return p.shippingPrice;
  return p.other;
}

/** Rules that depend on what the field is, whatever the API's wording. */
function fieldRule(path: string, apiMessage: string, t: ProblemMessages['rules']): string | undefined {
  const leaf = path.split('.').at(-1) ?? '';
  if (leaf === 'email') return /in use/i.test(apiMessage) ? t.emailInUse : t.email;
  if (leaf === 'country') return t.country;
  if (leaf === 'currency') return t.currency;
  if (leaf === 'locale') return t.language;
  if (path === 'category_id' || path === 'category' || path.startsWith('terms.') || path === 'term' || path === 'sort') return t.choose;
  if (path.startsWith('image_ids')) return t.photos;
  // amounts are minor units on the wire: the API's limits would read 100 times too large
  if (leaf === 'amount' || leaf.includes('price') || path === 'price') return t.amount;
  if (leaf === 'stock') return t.wholeNumber;
  return undefined;
}

/** Checkout's own rules (order rule 5: a voucher's reason at `voucher_code`; the delivery's method, option, address). */
function orderRule(path: string, apiMessage: string, lang: string): string | undefined {
  const t = (orderMessagesByLang[lang.split('-')[0] as keyof typeof orderMessagesByLang] ?? orderMessagesByLang.en).problems;
  if (path === 'voucher_code') {
    if (/no voucher/i.test(apiMessage)) return t.voucherUnknown;
    if (/can be used from/i.test(apiMessage)) return t.voucherNotYet;
    if (/expired/i.test(apiMessage)) return t.voucherExpired;
    if (/at least/i.test(apiMessage)) return t.voucherMinimum;
    if (/once per buyer/i.test(apiMessage)) return t.voucherUsed;
    if (/used up/i.test(apiMessage)) return t.voucherUsedUp;
    return /^Must be/.test(apiMessage) ? undefined : t.voucherOther;
  }
  if (path === 'delivery.address') return t.addressNeeded;
  if (path === 'delivery.method') return t.method;
  if (path === 'delivery.option') return t.option;
  return undefined;
}

/** One field's problem in the person's words. `path` is the plain path (`location.country`). */
export function fieldMessage(path: string, apiMessage: string, lang: string): string {
  const t = problemMessages(lang);
  const order = orderRule(path, apiMessage, lang);
  if (order) return order;
  if (/needed to publish|sets the shipping size/i.test(apiMessage) || path === 'shipping_size') return publishMessage(path, apiMessage, t);
  if (path === 'ask_valuation') return t.publish.valuation;
  if (/^Required\.?$|^Must not be empty\.?$/.test(apiMessage)) return t.rules.required;
  let m = /^Must be (at most|fewer than) (\d+) characters?/.exec(apiMessage);
  if (m) return t.rules.tooLong(number(m[1] === 'at most' ? m[2]! : String(Number(m[2]) - 1), lang));
  m = /^Must be (at least|more than) (\d+) characters?/.exec(apiMessage);
  // at least 1 character is "fill this in", never "Use at least 1 characters."
  if (m) return m[1] === 'at least' && m[2] === '1' ? t.rules.required : t.rules.tooShort(number(m[1] === 'at least' ? m[2]! : String(Number(m[2]) + 1), lang));
  m = /^Must be (?:at most|fewer than) (\d+) items?/.exec(apiMessage);
  if (m) return t.rules.tooMany(number(m[1]!, lang));
  if (/pixels/.test(apiMessage)) return t.rules.tooManyPixels;
  const rule = fieldRule(path, apiMessage, t.rules);
  if (rule) return rule;
  m = /^Must be (at most|at least) (\d+)\.$/.exec(apiMessage);
  if (m) return (m[1] === 'at most' ? t.rules.atMost : t.rules.atLeast)(number(m[2]!, lang));
  const english = lang === 'en' || lang.startsWith('en-');
  return english && readable(apiMessage) ? apiMessage : t.rules.check;
}

export interface Explained {
  /** about the whole form or page; absent when the field messages say it all */
  message?: string;
  /** form field → message */
  errors: Record<string, string>;
  code?: string;
}

/** A problem as the shopper should read it: field messages by form field, a sentence for the rest. */
export function explainProblem(p: ApiProblemBody | undefined, lang: string, fieldOf: FieldOf = firstSegment): Explained {
  if (!p) return { message: codeMessage(undefined, lang), errors: {} };
  const errors: Record<string, string> = {};
  for (const e of p.errors ?? []) {
    const path = plainPath(e.location);
    // a problem about the input as a whole has no field: it is the form's message
    if (path === '') continue;
    errors[fieldOf(path)] ??= fieldMessage(path, e.message, lang);
  }
  const whole = (p.errors ?? []).find((e) => plainPath(e.location) === '');
  const message = whole ? fieldMessage('', whole.message, lang) : codeMessage(p.code, lang, p.detail);
  return { message, errors, code: p.code };
}

/** Field messages that have no field on screen, named by their field ("Country: Choose …"). */
export function unplaced(errors: Record<string, string>, shown: Iterable<string>, lang: string, labels: Record<string, string> = {}): string[] {
  const on = new Set(shown);
  const names = { ...problemMessages(lang).labels, ...labels };
  return Object.entries(errors)
    .filter(([field]) => !on.has(field))
    .map(([field, message]) => (names[field] ? `${names[field]}: ${message}` : message));
}

/** A failed call shown in place of what it would have shown: one paragraph of text. */
export function problemText(error: unknown, lang: string, labels: Record<string, string> = {}): string {
  // A caught error never reaches Next's logger; log it here so operators see it.
  console.error(`API call failed: ${(error as Error)?.message}`);
  const p = problemOf(error);
  const explained = explainProblem(p, lang);
  return [explained.message, ...unplaced(explained.errors, [], lang, labels)].filter(Boolean).join(' ');
}
