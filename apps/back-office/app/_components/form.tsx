'use client';

import { useActionState, useEffect, useState, type ReactNode } from 'react';
import type { FormState } from '../../lib/problems';
// one labelled field with its hint or problem, as the storefront draws it
import { FieldRow, type Field } from '../../../reference-storefront/app/_components/field-row';

export type { Field };

type Action = (state: FormState, form: FormData) => Promise<FormState>;

/**
 * A form posted to a server action. Each problem the API lists is shown next to the field it is
 * about (tied to it with aria-describedby and aria-invalid); the rest above the button. Works
 * without JavaScript too (a plain POST of the form).
 */
export function Form({
  action,
  fields = [],
  submit,
  hidden = {},
  name,
  success,
  danger,
  children,
  layout = 'stack',
}: {
  action: Action;
  /** or, by the last submit's outcome (sign-in asks for the code after the password) */
  fields?: Field[] | ((state: FormState) => Field[]);
  submit: string;
  hidden?: Record<string, string> | ((state: FormState) => Record<string, string>);
  /** the form's accessible name, and the prefix of its field ids */
  name: string;
  /** shown when the action succeeded */
  success?: string;
  /** the button looks like what it does (deny, revoke, block) */
  danger?: boolean;
  /** shown between the fields and the button (a result: a secret shown once) */
  children?: (state: FormState) => ReactNode;
  /** `inline`: the fields and button in one row where there is room (filters) */
  layout?: 'stack' | 'inline';
}) {
  const [state, formAction, pending] = useActionState(action, {} as FormState);
  // a new key once the previous attempt answered (made after hydration: a server-rendered one would not match)
  const [key, setKey] = useState('');
  useEffect(() => setKey(crypto.randomUUID()), [state]);
  const prefix = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const shown = typeof fields === 'function' ? fields(state) : fields;
  const kept = typeof hidden === 'function' ? hidden(state) : hidden;
  return (
    <form action={formAction} className={`form ${layout}`} aria-label={name} noValidate>
      {Object.entries(kept).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      <input type="hidden" name="idempotency_key" value={key} />
      {shown.map((f) => (
        <FieldRow key={`${f.name}-${state.values?.[f.name] ?? ''}`} field={f} id={`${prefix}-${f.name.replace(/\W+/g, '-')}`} value={state.values?.[f.name] ?? f.defaultValue ?? ''} error={state.errors?.[f.name]} />
      ))}
      {state.ok && success && (
        <p className="notice" role="status">
          {success}
        </p>
      )}
      {!state.ok && state.message && (
        <p className="problem" role="alert">
          {state.message}
        </p>
      )}
      {children?.(state)}
      <button type="submit" disabled={pending} className={danger ? 'danger' : undefined}>
        {submit}
      </button>
    </form>
  );
}
