'use client';

import { createKey } from '../../team-actions';
import { Form } from '../../_components/form';

/** A new key's kind; the answer shows its secret this once. */
export function CreateKeyForm() {
  return (
    <Form
      action={createKey}
      name="Create an API key"
      submit="Create key"
      layout="inline"
      fields={[{ name: 'kind', label: 'Kind', type: 'select', options: [{ value: 'secret', label: 'Secret (servers)' }, { value: 'publishable', label: 'Publishable (browsers, read only)' }] }]}
    >
      {(s) =>
        s.ok && s.result?.token ? (
          <div className="notice" role="status">
            <p>The new key (shown only now: copy it somewhere safe):</p>
            <p>
              <code data-testid="new-key">{s.result.token}</code>
            </p>
          </div>
        ) : null
      }
    </Form>
  );
}
