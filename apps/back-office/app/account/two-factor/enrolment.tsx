'use client';

import { useActionState } from 'react';
import type { FormState } from '../../../lib/problems';
import { confirmTotp, startTotp } from '../../account-actions';
import { Form } from '../../_components/form';

/** Start: a new secret and its otpauth URL to add to an authenticator app; then the app's code turns the codes on. */
export function TwoFactorEnrolment() {
  const [started, start, pending] = useActionState(startTotp, {} as FormState);
  if (!started.ok || !started.result) {
    return (
      <form action={start} aria-label="Start two-factor enrolment" className="form stack">
        {started.message && (
          <p className="problem" role="alert">
            {started.message}
          </p>
        )}
        <button type="submit" disabled={pending}>
          Set up two-factor codes
        </button>
      </form>
    );
  }
  return (
    <>
      <p>Add this key to your authenticator app (type the secret, or open the link on the phone), then type the code it shows.</p>
      <dl className="facts">
        <dt>Secret</dt>
        <dd>
          <code data-testid="totp-secret">{started.result.secret}</code>
        </dd>
        <dt>Link for the app</dt>
        <dd>
          <a href={started.result.otpauth_url} className="break">
            {started.result.otpauth_url}
          </a>
        </dd>
      </dl>
      <Form
        action={confirmTotp}
        name="Confirm two-factor codes"
        submit="Turn on two-factor codes"
        success="Two-factor codes are on."
        fields={[{ name: 'code', label: 'Code from your authenticator app', autoComplete: 'one-time-code', inputMode: 'numeric', required: true }]}
      />
    </>
  );
}
