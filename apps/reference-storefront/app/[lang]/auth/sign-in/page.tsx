import Link from 'next/link';
import { ActionForm } from '../../../_components/action-form';
import { Shell } from '../../../_components/shell';
import { messages } from '../../../../lib/messages';
import { emailLinkAction, linkSignInAction, signInAction } from '../actions';
import { titled } from '../../../../lib/page-meta';

export const dynamic = 'force-dynamic';
export const generateMetadata = titled((t) => t.signIn.title);

type Props = { params: Promise<{ lang: string }>; searchParams: Promise<{ token?: string; next?: string }> };

/**
 * Sign in with a password or an emailed link. With `?token=` (the emailed link) the page asks for
 * one click before spending the single-use token, so mail scanners that open links cannot use it up.
 */
export default async function SignInPage({ params, searchParams }: Props) {
  const { lang } = await params;
  const { token, next } = await searchParams;
  const t = messages(lang);
  const emailField = { name: 'email', label: t.fields.email, type: 'email' as const, autoComplete: 'email', required: true };
  const linkForm = <ActionForm name={t.signIn.orLink} action={emailLinkAction} hidden={{ lang }} submit={t.signIn.linkSubmit} success={t.signIn.linkSent} fields={[emailField]} />;

  if (token) {
    return (
      <Shell lang={lang}>
        <h1>{t.signIn.continueTitle}</h1>
        <p>{t.signIn.continueText}</p>
        <ActionForm name={t.signIn.continueTitle} action={linkSignInAction} hidden={{ lang, token }} submit={t.signIn.continue} fields={[]} />
        <h2>{t.signIn.orLink}</h2>
        {linkForm}
      </Shell>
    );
  }
  return (
    <Shell lang={lang}>
      <h1>{t.signIn.title}</h1>
      <ActionForm
        name={t.signIn.title}
        action={signInAction}
        hidden={{ lang, next: next ?? '' }}
        submit={t.signIn.submit}
        fields={[emailField, { name: 'password', label: t.fields.password, type: 'password', autoComplete: 'current-password', required: true }]}
      />
      <p className="muted">
        <Link href={`/${lang}/auth/reset-password`}>{t.signIn.forgot}</Link> · {t.signIn.noAccount} <Link href={`/${lang}/auth/sign-up`}>{t.nav.signUp}</Link>
      </p>
      <h2>{t.signIn.orLink}</h2>
      {linkForm}
    </Shell>
  );
}
