import { problemOf, type CallContext } from './api';

/** What a form's server action answers: a message for the whole form, or details next to fields. */
export interface FormState {
  ok?: boolean;
  message?: string;
  /** field name → the problem's message for it */
  errors?: Record<string, string>;
  /** what was typed, so a failed submit keeps it (never passwords) */
  values?: Record<string, string>;
  /** a problem code the page may react to (e.g. link_expired → offer a new link) */
  code?: string;
  /** every problem's message, for forms whose problems are not fields of their own (publish) */
  issues?: string[];
}

export const initialState: FormState = {};

/** The form field a problem location belongs to; by default the first segment (`body.email` → `email`). */
export type FieldOf = (location: string) => string;
const firstSegment: FieldOf = (location) => location.replace(/^(body|query|path)\./, '').split('.')[0]!;

/** The problem's `errors[]` next to their fields (`body.email` → `email`), its `detail` for the form. */
export function problemToState(error: unknown, values: Record<string, string> = {}, fallback = 'Something went wrong. Please try again.', fieldOf: FieldOf = firstSegment): FormState {
  const p = problemOf(error);
  if (!p) {
    console.error(`API call failed: ${(error as Error).message}`);
    return { message: 'The shop cannot reach its service right now. Please try again in a moment.', values };
  }
  const errors: Record<string, string> = {};
  for (const e of p.errors ?? []) errors[fieldOf(e.location)] ??= e.message;
  const onlyFields = Object.keys(errors).length > 0 && p.code === 'validation_failed';
  return { message: onlyFields ? undefined : p.detail || fallback, errors, values, code: p.code, issues: (p.errors ?? []).map((e) => e.message) };
}

/** The text fields of a submitted form, without secrets, to refill it after a failure. */
export function keptValues(form: FormData, secret: string[] = ['password', 'token']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of form.entries()) if (typeof v === 'string' && !secret.includes(k)) out[k] = v;
  return out;
}

/** Optional profile fields: empty inputs are "not sent" on sign-up. */
export function optional(form: FormData, name: string): string | undefined {
  const v = form.get(name);
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

export function text(form: FormData, name: string): string {
  const v = form.get(name);
  return typeof v === 'string' ? v : '';
}

/** A safe place to go after signing in: a path of this shop in this language, never another site. */
export function safeNext(next: string | undefined | null, lang: string): string {
  if (next && next.startsWith(`/${lang}/`) && !next.startsWith('//') && !next.includes('\\')) return next;
  return `/${lang}/account`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The form's per-attempt Idempotency-Key (see ActionForm), so a double submit replays instead of repeating. */
export function idempotencyKeyOf(form: FormData): string | undefined {
  const key = text(form, 'idempotency_key');
  return UUID.test(key) ? key : undefined;
}

/** tRPC call options carrying that key. */
export function callOptions(form: FormData): { context: CallContext } {
  const key = idempotencyKeyOf(form);
  return { context: key ? { idempotencyKey: key } : {} };
}
