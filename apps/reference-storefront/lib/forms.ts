import type { CallContext } from './api';
import { explainProblem, problemOf, type FieldOf } from './problems';

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
}

export const initialState: FormState = {};

/**
 * The problem in the shopper's words (lib/problems.ts): messages next to the fields they name
 * (`body.email` → `email`, or as `fieldOf` places them), a sentence for the form, and what was typed.
 */
export function problemToState(error: unknown, lang: string, values: Record<string, string> = {}, fieldOf?: FieldOf): FormState {
  const p = problemOf(error);
  if (!p) console.error(`API call failed: ${(error as Error)?.message}`);
  const explained = explainProblem(p, lang, fieldOf);
  return { message: explained.message, errors: explained.errors, values, code: explained.code };
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

/**
 * A safe place to go (after signing in, or back from a form): a path of this shop in this language,
 * never another site; else `fallback`. `lang` must already be checked (lib/form-lang.ts).
 */
export function safeNext(next: string | undefined | null, lang: string, fallback = `/${lang}/account`): string {
  if (next && next.startsWith(`/${lang}/`) && !next.startsWith('//') && !/[\\\s]/.test(next)) return next;
  return fallback;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The form's per-attempt Idempotency-Key (see ActionForm), so a double submit replays instead of repeating. */
export function idempotencyKeyOf(form: FormData, field = 'idempotency_key'): string | undefined {
  const key = text(form, field);
  return UUID.test(key) ? key : undefined;
}

/** tRPC call options carrying that key (a form that makes two calls per attempt sends a key for each). */
export function callOptions(form: FormData, field = 'idempotency_key'): { context: CallContext } {
  const key = idempotencyKeyOf(form, field);
  return { context: key ? { idempotencyKey: key } : {} };
}
