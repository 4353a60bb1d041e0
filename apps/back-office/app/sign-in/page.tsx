import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { currentOperator } from '../../lib/session';
import { SignInForm } from './sign-in-form';

export const metadata: Metadata = { title: 'Sign in' };

export default async function SignInPage() {
  if (await currentOperator()) redirect('/');
  return (
    <main id="main" className="narrow">
      <h1>Sign in to the back office</h1>
      <SignInForm />
    </main>
  );
}
