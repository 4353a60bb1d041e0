import { safe } from '@trpc/client';
import Link from 'next/link';
import { Shell } from '../../../_components/shell';
import { api, problemOf } from '../../../../lib/api';
import { messages } from '../../../../lib/messages';
import { problemText } from '../../../../lib/problems';
import { currentUser } from '../../../../lib/session';
import { titled } from '../../../../lib/page-meta';

export const dynamic = 'force-dynamic';
export const generateMetadata = titled((t) => t.verify.title);

type Props = { params: Promise<{ lang: string }>; searchParams: Promise<{ token?: string }> };

/** The confirmation link: confirming is harmless to repeat for its 24 hours, so the page does it on opening. */
export default async function VerifyEmailPage({ params, searchParams }: Props) {
  const { lang } = await params;
  const { token } = await searchParams;
  const t = messages(lang).verify;
  if (!token) {
    return (
      <Shell lang={lang}>
        <h1>{t.title}</h1>
        <p>{t.missing}</p>
      </Shell>
    );
  }
  const [, error] = await safe(api().emailVerifications.confirm.mutate({ token }));
  const user = await currentUser().catch(() => null);
  const code = error ? (problemOf(error)?.code ?? 'unreachable') : undefined;
  return (
    <Shell lang={lang}>
      <h1>{t.title}</h1>
      {!error ? (
        <>
          <p className="notice" role="status">
            {t.done}
          </p>
          <p>
            <Link href={`/${lang}/account`}>{t.toAccount}</Link>
          </p>
        </>
      ) : (
        <>
          <p className="problem" role="alert">
            {code === 'link_expired' ? t.expired : code === 'link_invalid' ? t.invalid : problemText(error, lang)}
          </p>
          <p>
            {user ? <Link href={`/${lang}/account`}>{t.nextSignedIn}</Link> : <Link href={`/${lang}/auth/sign-in?next=/${lang}/account`}>{t.nextSignedOut}</Link>}
          </p>
        </>
      )}
    </Shell>
  );
}
