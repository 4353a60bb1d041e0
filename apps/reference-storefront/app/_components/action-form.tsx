'use client';

import { useActionState, useEffect, useState } from 'react';
import type { FormState } from '../../lib/forms';

export interface Field {
  name: string;
  label: string;
  type?: 'text' | 'email' | 'password' | 'tel' | 'textarea' | 'select' | 'number' | 'checkbox' | 'file';
  /** file inputs: accepted types */
  accept?: string;
  autoComplete?: string;
  required?: boolean;
  hint?: string;
  defaultValue?: string;
  options?: { value: string; label: string }[];
}

/** A fresh key per attempt: a double click replays the first answer, a corrected retry is a new action. */
function newKey(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = Array.from({ length: 16 }, () => Math.floor(Math.random() * 256));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

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
  showIssues = false,
}: {
  action: (state: FormState, form: FormData) => Promise<FormState>;
  fields: Field[];
  submit: string;
  hidden?: Record<string, string>;
  /** shown instead of the message when the action succeeded */
  success?: string;
  /** accessible name of the form */
  name: string;
  /** list every problem message under the form (for problems that are not fields of this form) */
  showIssues?: boolean;
}) {
  const [state, formAction, pending] = useActionState(action, {} as FormState);
  // A new key whenever the previous attempt has answered. Made in the browser after hydration (a
  // server-rendered random value would not match the client's); without JavaScript there is none.
  const [idempotencyKey, setIdempotencyKey] = useState('');
  useEffect(() => setIdempotencyKey(newKey()), [state]);
  return (
    <form action={formAction} className="form" aria-label={name} noValidate>
      {Object.entries(hidden).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      <input type="hidden" name="idempotency_key" value={idempotencyKey} />
      {fields.map((f) => {
        const error = state.errors?.[f.name];
        const value = state.values?.[f.name] ?? f.defaultValue ?? '';
        const id = `${name}-${f.name}`.replace(/\s+/g, '-').toLowerCase();
        const common = {
          id,
          name: f.name,
          required: f.required,
          autoComplete: f.autoComplete,
          'aria-invalid': error ? true : undefined,
          'aria-describedby': error ? `${id}-error` : f.hint ? `${id}-hint` : undefined,
        };
        return (
          <div key={`${f.name}-${JSON.stringify(state.values?.[f.name] ?? null)}`} className={`field${f.type === 'checkbox' ? ' checkbox' : ''}${error ? ' has-error' : ''}`}>
            <label htmlFor={id}>{f.label}</label>
            {f.type === 'textarea' ? (
              <textarea {...common} defaultValue={value} rows={4} />
            ) : f.type === 'select' ? (
              <select {...common} defaultValue={value}>
                {f.options?.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </select>
            ) : f.type === 'checkbox' ? (
              <input {...common} type="checkbox" defaultChecked={value === 'on' || value === 'true'} />
            ) : f.type === 'file' ? (
              <input {...common} type="file" accept={f.accept} />
            ) : (
              <input {...common} type={f.type ?? 'text'} defaultValue={f.type === 'password' ? undefined : value} />
            )}
            {f.hint && !error && (
              <small id={`${id}-hint`} className="hint">
                {f.hint}
              </small>
            )}
            {error && (
              <small id={`${id}-error`} className="field-error" role="alert">
                {error}
              </small>
            )}
          </div>
        );
      })}
      {state.ok && success ? (
        <p className="notice" role="status">
          {success}
        </p>
      ) : (
        state.message && (
          <div className="problem" role="alert">
            <p>{state.message}</p>
            {showIssues && state.issues && state.issues.length > 1 && (
              <ul>
                {state.issues.map((i) => (
                  <li key={i}>{i}</li>
                ))}
              </ul>
            )}
          </div>
        )
      )}
      <button type="submit" disabled={pending}>
        {submit}
      </button>
    </form>
  );
}
