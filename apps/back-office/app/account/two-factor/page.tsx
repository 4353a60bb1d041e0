import type { Metadata } from 'next';
import { requireOperator } from '../../../lib/session';
import { TwoFactorEnrolment } from './enrolment';

export const metadata: Metadata = { title: 'Two-factor codes' };

export default async function TwoFactorPage() {
  const { operator } = await requireOperator();
  return (
    <main id="main" className="narrow">
      <h1>Two-factor codes</h1>
      {operator.totp_enabled ? (
        <p className="notice">Two-factor codes are on: signing in asks for the code from your authenticator app.</p>
      ) : (
        <>
          <p>
            With two-factor codes on, signing in also asks for a 6-digit code from an authenticator app on your phone.
            {operator.role === 'admin' ? ' Admins of a live marketplace must turn them on.' : ''}
          </p>
          <TwoFactorEnrolment />
        </>
      )}
    </main>
  );
}
