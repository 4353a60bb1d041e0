import Link from 'next/link';
import { ActionForm } from '../../../_components/action-form';
import { Shell } from '../../../_components/shell';
import { messages } from '../../../../lib/messages';
import { ResetWithToken } from './reset-with-token';
import { requestResetAction } from '../actions';
import { titled } from '../../../../lib/page-meta';

export const dynamic = 'force-dynamic';
export const generateMetadata = titled((t) => t.reset.title);

type Props = { params: Promise<{ lang: string }>; searchParams: Promise<{ token?: string }> };

/** Without a token: ask for a reset link. With the emailed token: choose the new password. */
export default async function ResetPasswordPage({ params, searchParams }: Props) {
  const { lang } = await params;
  const { token } = await searchParams;
  const t = messages(lang);
  const requestForm = (
    <ActionForm
      name={t.reset.requestSubmit}
      action={requestResetAction}
      hidden={{ lang }}
      submit={t.reset.requestSubmit}
      success={t.reset.requested}
      fields={[{ name: 'email', label: t.fields.email, type: 'email', autoComplete: 'email', required: true }]}
    />
  );
  return (
    <Shell lang={lang}>
      <h1>{t.reset.title}</h1>
      {token ? (
        <ResetWithToken lang={lang} token={token} requestForm={requestForm} t={{ reset: t.reset, newPassword: t.fields.newPassword, signIn: t.nav.signIn }} signInHref={`/${lang}/auth/sign-in`} />
      ) : (
        <>
          <p>{t.reset.requestText}</p>
          {requestForm}
          <p className="muted">
            <Link href={`/${lang}/auth/sign-in`}>{t.nav.signIn}</Link>
          </p>
        </>
      )}
    </Shell>
  );
}
