import { safe } from '@trpc/client';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { ActionForm } from '../../_components/action-form';
import { Shell } from '../../_components/shell';
import { getMarketplace } from '../../../lib/api';
import { displayName } from '../../../lib/intl';
import { messages } from '../../../lib/messages';
import { currentUser } from '../../../lib/session';
import { resendConfirmationAction, updateProfileAction } from '../auth/actions';
import { titled } from '../../../lib/page-meta';

export const dynamic = 'force-dynamic';
export const generateMetadata = titled((t) => t.account.title);

type Props = { params: Promise<{ lang: string }>; searchParams: Promise<{ welcome?: string; signed_in?: string }> };

export default async function AccountPage({ params, searchParams }: Props) {
  const { lang } = await params;
  const { welcome, signed_in } = await searchParams;
  const user = await currentUser();
  if (!user) redirect(`/${lang}/auth/sign-in?next=/${lang}/account`);
  const t = messages(lang);
  const [marketplace] = await safe(getMarketplace());
  const locales = marketplace?.locales ?? [];
  return (
    <Shell lang={lang}>
      <h1>{t.account.title}</h1>
      {welcome && (
        <p className="notice" role="status">
          {t.account.welcome}
        </p>
      )}
      {signed_in && (
        <p className="notice" role="status">
          {t.account.signedIn}
        </p>
      )}
      <section aria-label={t.fields.email}>
        <p>
          <strong>{user.email}</strong> ·{' '}
          <span className={user.email_verified ? 'badge ok' : 'badge'} data-testid="email-status">
            {user.email_verified ? t.account.verified : t.account.unverified}
          </span>
        </p>
        {!user.email_verified && <ActionForm name={t.account.resend} action={resendConfirmationAction} hidden={{ lang }} submit={t.account.resend} success={t.account.resent} fields={[]} />}
      </section>
      <nav aria-label={t.orders.list.title}>
        <p>
          <Link href={`/${lang}/account/orders`}>{t.orders.list.title}</Link> · <Link href={`/${lang}/account/orders?as=seller`}>{t.orders.list.sold}</Link>
        </p>
      </nav>
      <p>
        <Link href={`/${lang}/account/payouts`}>{t.payouts.link}</Link>
      </p>
      <h2>{t.account.save}</h2>
      <ActionForm
        name={t.account.save}
        action={updateProfileAction}
        hidden={{ lang }}
        submit={t.account.save}
        success={t.account.saved}
        fields={[
          { name: 'first_name', label: t.fields.firstName, autoComplete: 'given-name', defaultValue: user.first_name },
          { name: 'last_name', label: t.fields.lastName, autoComplete: 'family-name', defaultValue: user.last_name },
          { name: 'display_name', label: t.fields.displayName, autoComplete: 'nickname', defaultValue: user.display_name },
          { name: 'bio', label: t.fields.bio, type: 'textarea', defaultValue: user.bio },
          { name: 'phone', label: t.fields.phone, type: 'tel', autoComplete: 'tel', defaultValue: user.phone },
          {
            name: 'locale',
            label: t.fields.locale,
            type: 'select',
            defaultValue: user.locale,
            options: [{ value: '', label: t.fields.localeDefault }, ...locales.map((l) => ({ value: l, label: displayName(l, 'language', l) }))],
          },
        ]}
      />
    </Shell>
  );
}
