'use client';

import { useActionState, useEffect, useState } from 'react';
import type { FormState } from '../../lib/forms';
import { unplaced } from '../../lib/problems';
import { FieldRow, type Field } from './field-row';
import { newKey } from '../../lib/new-key';

/**
 * A form posted to a server action: the API's problem `detail` is shown next to the field it is
 * about (from `errors[].location`), or above the button when it is about the whole form.
 */
export function ActionForm({
  action,
  fields,
  submit,
  hidden = {},
  success,
  name,
  idPrefix,
}: {
  action: (state: FormState, form: FormData) => Promise<FormState>;
  fields: Field[];
  submit: string;
  hidden?: Record<string, string>;
  /** shown instead of the message when the action succeeded */
  success?: string;
  /** accessible name of the form */
  name: string;
  /** field ids start with this instead of the name (two forms of one name on a page, e.g. newsletter sign-ups) */
  idPrefix?: string;
}) {
  const [state, formAction, pending] = useActionState(action, {} as FormState);
  // A new key whenever the previous attempt has answered. Made in the browser after hydration (a
  // server-rendered random value would not match the client's); without JavaScript there is none.
  const [idempotencyKey, setIdempotencyKey] = useState('');
  useEffect(() => setIdempotencyKey(newKey()), [state]);
  // problems about fields this form does not have are listed with the form's message, named
  const others = unplaced(state.errors ?? {}, fields.map((f) => f.name), hidden.lang ?? 'en');
  return (
    <form action={formAction} className="form" aria-label={name} noValidate>
      {Object.entries(hidden).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      <input type="hidden" name="idempotency_key" value={idempotencyKey} />
      {fields.map((f) => (
        // keyed by the value a failed submit sent back, so the field shows it again after React resets the form
        <FieldRow
          key={`${f.name}-${JSON.stringify(state.values?.[f.name] ?? null)}`}
          field={f}
          id={`${idPrefix ?? name}-${f.name}`.replace(/\s+/g, '-').toLowerCase()}
          value={state.values?.[f.name] ?? f.defaultValue ?? ''}
          error={state.errors?.[f.name]}
        />
      ))}
      <FormOutcome state={state} success={success} others={others} />
      <button type="submit" disabled={pending}>
        {submit}
      </button>
    </form>
  );
}

/** What a form's last submit came to: its success line, or the problem with what no field shows. */
export function FormOutcome({ state, success, others = [] }: { state: FormState; success?: string; others?: string[] }) {
  if (state.ok && success) {
    return (
      <p className="notice" role="status">
        {success}
      </p>
    );
  }
  if (!state.message) return null;
  return (
    <div className="problem" role="alert">
      <p>{state.message}</p>
      {others.length > 0 && (
        <ul>
          {others.map((i) => (
            <li key={i}>{i}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
