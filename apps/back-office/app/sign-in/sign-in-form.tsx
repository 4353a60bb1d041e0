'use client';

import { signIn } from '../account-actions';
import { Form } from '../_components/form';

/** Marketplace, email and password; when the operator has two-factor codes on, the code (what was typed is kept). */
export function SignInForm() {
  return (
    <Form
      action={signIn}
      name="Sign in"
      submit="Sign in"
      fields={(s) =>
        s.result?.step === 'code'
          ? [{ name: 'code', label: 'Code from your authenticator app', autoComplete: 'one-time-code', inputMode: 'numeric', required: true, hint: 'The 6 digits your app shows now.' }]
          : [
              { name: 'marketplace', label: 'Marketplace', required: true, autoComplete: 'organization', hint: 'Its short name (slug), e.g. demo.' },
              { name: 'email', label: 'Email', type: 'email', required: true, autoComplete: 'username' },
              { name: 'password', label: 'Password', type: 'password', required: true, autoComplete: 'current-password' },
            ]
      }
      hidden={(s): Record<string, string> => (s.result?.step === 'code' ? { marketplace: s.values?.marketplace ?? '', email: s.values?.email ?? '', password: s.values?.password ?? '' } : {})}
    />
  );
}
