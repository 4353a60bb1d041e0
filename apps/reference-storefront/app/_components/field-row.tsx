/** One field of a form: what FieldRow renders and ActionForm posts. */
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
  /** text inputs: which keyboard phones show (decimal for amounts) */
  inputMode?: 'decimal' | 'numeric' | 'text';
  /** textareas */
  rows?: number;
}

/**
 * One labelled form field with its hint or its problem: the problem replaces the hint and is tied
 * to the input (aria-describedby, aria-invalid) so screen readers read it with the field.
 */
export function FieldRow({ field: f, id, value, error }: { field: Field; id: string; value: string; error?: string }) {
  const common = {
    id,
    name: f.name,
    required: f.required,
    autoComplete: f.autoComplete,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? `${id}-error` : f.hint ? `${id}-hint` : undefined,
  };
  return (
    <div className={`field${f.type === 'checkbox' ? ' checkbox' : ''}${error ? ' has-error' : ''}`} data-field={f.name}>
      <label htmlFor={id}>{f.label}</label>
      {f.type === 'textarea' ? (
        <textarea {...common} defaultValue={value} rows={f.rows ?? 4} />
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
        <input {...common} type={f.type ?? 'text'} inputMode={f.inputMode} defaultValue={f.type === 'password' ? undefined : value} />
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
}
