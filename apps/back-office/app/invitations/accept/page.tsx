import type { Metadata } from 'next';
import { acceptInvitation } from '../../account-actions';
import { Form } from '../../_components/form';

export const metadata: Metadata = { title: 'Accept your invitation' };

/** Where the invitation email's link leads (`/invitations/accept?token=…`): choose a password and you are signed in. */
export default async function AcceptInvitationPage({ searchParams }: { searchParams: Promise<{ token?: string }> }) {
  const { token } = await searchParams;
  return (
    <main id="main" className="narrow">
      <h1>Join the team</h1>
      {token ? (
        <>
          <p>Choose a password for the back office (at least 10 characters). Next you can turn on two-factor codes.</p>
          <Form
            action={acceptInvitation}
            name="Set your password"
            submit="Set password and sign in"
            hidden={{ token }}
            fields={[
              { name: 'password', label: 'Password', type: 'password', required: true, autoComplete: 'new-password' },
              { name: 'password_again', label: 'Password again', type: 'password', required: true, autoComplete: 'new-password' },
            ]}
          />
        </>
      ) : (
        <p className="problem">This link has no invitation in it. Open the link from your invitation email again, or ask an admin to invite you again.</p>
      )}
    </main>
  );
}
