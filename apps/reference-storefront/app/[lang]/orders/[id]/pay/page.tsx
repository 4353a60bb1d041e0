import { safe } from '@trpc/client';
import Link from 'next/link';
import { notFound, redirect } from 'next/navigation';
import { Shell } from '../../../../_components/shell';
import { apiAs, isTestMode, problemOf } from '../../../../../lib/api';
import { messages } from '../../../../../lib/messages';
import { formatMoney } from '../../../../../lib/money';
import { clientSecretOf } from '../../../../../lib/orders';
import { stripePublishableKey } from '../../../../../lib/payouts';
import { titled } from '../../../../../lib/page-meta';
import { sessionToken } from '../../../../../lib/session';
import { sandboxPayAction } from '../../actions';
import { OrderForm } from '../../order-forms';
import { StripePay } from './stripe-pay';

export const dynamic = 'force-dynamic';
export const generateMetadata = titled((t) => t.orders.pay.title);

type Props = { params: Promise<{ lang: string; id: string }>; searchParams: Promise<{ declined?: string }> };

/**
 * `/<lang>/orders/<id>/pay`: Stripe's Payment Element when the storefront has a Stripe publishable
 * key (the API then uses Stripe); otherwise, in test mode, the sandbox's own clearly labelled test
 * payment, confirmed through the API's test helper. The client secret comes from the httpOnly
 * cookie checkout set, never from the URL.
 */
export default async function PayPage({ params, searchParams }: Props) {
  const { lang, id } = await params;
  const token = await sessionToken();
  if (!token) redirect(`/${lang}/auth/sign-in?next=${encodeURIComponent(`/${lang}/orders/${id}/pay`)}`);
  const [order, error] = await safe(apiAs(token).me.orders.get.query({ id }));
  if (error) {
    const status = problemOf(error)?.status;
    if (status === 404 || status === 422) notFound();
    throw error;
  }
  if (order.state !== 'pending_payment') redirect(`/${lang}/orders/${id}`);
  const t = messages(lang).orders.pay;
  const secret = await clientSecretOf(id);
  const publishableKey = stripePublishableKey();
  const { declined } = await searchParams;
  return (
    <Shell lang={lang}>
      <h1>{t.title}</h1>
      <p>
        {t.amount}: <strong data-testid="pay-amount">{formatMoney({ amount: order.total, currency: order.currency }, lang)}</strong>
      </p>
      <p className="muted">{t.window}</p>
      {declined && (
        <p className="problem" role="alert">
          {t.declined}
        </p>
      )}
      {!secret ? (
        <p className="problem">{t.noSecret}</p>
      ) : publishableKey ? (
        <StripePay publishableKey={publishableKey} clientSecret={secret} returnUrl={`${process.env.STOREFRONT_URL ?? ''}/${lang}/orders/${id}`} lang={lang} label={t.stripe} />
      ) : isTestMode() ? (
        <section className="sandbox-pay" aria-labelledby="sandbox-title">
          <h2 id="sandbox-title">{t.sandbox}</h2>
          <p>{t.sandboxNote}</p>
          <OrderForm action={sandboxPayAction} hidden={{ lang, order_id: id }} name={t.sandbox}>
            <button type="submit" name="outcome" value="succeeded">
              {t.succeed}
            </button>
            <button type="submit" name="outcome" value="failed" className="secondary">
              {t.fail}
            </button>
          </OrderForm>
        </section>
      ) : (
        <p className="problem">{t.unavailable}</p>
      )}
      <p>
        <Link href={`/${lang}/orders/${id}`}>{messages(lang).orders.order.title}</Link>
      </p>
    </Shell>
  );
}
