import 'server-only';
import { revalidatePath } from 'next/cache';
import { consoleApi, type Console } from './api';
import { formProblem, problemOf, type FormState } from './problems';
import { sessionToken } from './session';

/** A form's text value ('' when absent). */
export const text = (form: FormData, name: string) => String(form.get(name) ?? '').trim();

/** The form's values for the fields named (sent back with a problem, so the form shows them again). */
export const valuesOf = (form: FormData, fields: string[]) => Object.fromEntries(fields.map((f) => [f, text(form, f)]));

/**
 * One change made by the signed-in operator: `call` with the operator's client and the form's
 * idempotency key. A problem comes back as the form shows it (next to its fields); success
 * revalidates the pages named and answers `ok` (with what `call` returned to show).
 */
export async function change(
  form: FormData,
  fields: string[],
  call: (api: Console, context: { idempotencyKey?: string }) => Promise<Record<string, string> | void>,
  opts: { revalidate?: string[]; fieldOf?: (path: string) => string } = {},
): Promise<FormState> {
  const token = await sessionToken();
  if (!token) return { message: 'You are signed out. Sign in again.' };
  const key = text(form, 'idempotency_key');
  let result: Record<string, string> | void;
  try {
    result = await call(consoleApi(token), key ? { idempotencyKey: key } : {});
  } catch (error) {
    return { ...formProblem(problemOf(error), fields, opts.fieldOf), values: valuesOf(form, fields) };
  }
  for (const path of opts.revalidate ?? []) revalidatePath(path);
  return { ok: true, ...(result ? { result } : {}) };
}
