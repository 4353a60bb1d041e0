import Link from 'next/link';
import { redirect } from 'next/navigation';
import { ActionForm } from '../../../_components/action-form';
import { Shell } from '../../../_components/shell';
import { messages } from '../../../../lib/messages';
import { currentUser } from '../../../../lib/session';
import { signUpAction } from '../actions';
import { titled } from '../../../../lib/page-meta';

export const dynamic = 'force-dynamic';
export const generateMetadata = titled((t) => t.signUp.title);

export default async function SignUpPage({ params }: { params: Promise<{ lang: string }> }) {
  const { lang } = await params;
  if (await currentUser().catch(() => null)) redirect(`/${lang}/account`);
  const t = messages(lang);
  return (
    <Shell lang={lang}>
      <h1>{t.signUp.title}</h1>
      <ActionForm
        name={t.signUp.title}
        action={signUpAction}
        hidden={{ lang }}
        submit={t.signUp.submit}
        fields={[
          { name: 'email', label: t.fields.email, type: 'email', autoComplete: 'email', required: true },
          { name: 'password', label: t.fields.password, type: 'password', autoComplete: 'new-password', hint: t.signUp.passwordHint },
          { name: 'first_name', label: t.fields.firstName, autoComplete: 'given-name' },
          { name: 'last_name', label: t.fields.lastName, autoComplete: 'family-name' },
        ]}
      />
      <p className="muted">
        {t.signUp.haveAccount} <Link href={`/${lang}/auth/sign-in`}>{t.nav.signIn}</Link>
      </p>
    </Shell>
  );
}
