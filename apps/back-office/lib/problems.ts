import { plainPath, type ApiProblemBody } from '../../reference-storefront/lib/problems';

// The problem's shape and how to find it in a tRPC error are the storefront's (one definition).
export { plainPath, problemOf, type ApiProblemBody } from '../../reference-storefront/lib/problems';

/** What a form's last submit came to: a message for the form, problems by field name, and the values sent (shown again). */
export interface FormState {
  ok?: boolean;
  message?: string;
  errors?: Record<string, string>;
  values?: Record<string, string>;
  /** what a form shows after it succeeded (a new key's secret, a new enrolment's secret) */
  result?: Record<string, string>;
}

/**
 * A problem as a form shows it: each error next to the field its location names (`fieldOf` maps
 * a path to a form field; by default the path itself, `price.amount` → `price.amount`), the detail
 * above the button, and the errors no field shows listed with it.
 */
export function formProblem(problem: ApiProblemBody | undefined, fields: string[], fieldOf: (path: string) => string = (p) => p): FormState {
  if (!problem) return { message: 'The API did not answer. Try again in a moment.' };
  const errors: Record<string, string> = {};
  const others: string[] = [];
  for (const e of problem.errors ?? []) {
    const field = fieldOf(plainPath(e.location));
    if (fields.includes(field) && !errors[field]) errors[field] = e.message;
    else others.push(plainPath(e.location) ? `${plainPath(e.location)}: ${e.message}` : e.message);
  }
  return { message: [problem.detail, ...others].filter(Boolean).join(' '), errors };
}
