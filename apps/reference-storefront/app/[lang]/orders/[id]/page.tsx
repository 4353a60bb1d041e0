import { safe } from '@trpc/client';
import Link from 'next/link';
import { notFound, redirect } from 'next/navigation';
import { Shell } from '../../../_components/shell';
import { apiAs, problemOf } from '../../../../lib/api';
import { messages } from '../../../../lib/messages';
import { viewerOf } from '../../../../lib/orders';
import { titled } from '../../../../lib/page-meta';
import { currentUser, sessionToken } from '../../../../lib/session';
import { WaitForOrder } from '../order-forms';
import { DeliveryBooking } from './delivery-booking';
import { OrderActions } from './order-actions';
import { OrderSummary } from './order-summary';
import { PARTY_PARTS, SELLER_PARTS } from './parts';

export const dynamic = 'force-dynamic';
export const generateMetadata = titled((t) => t.orders.order.title);

type Props = { params: Promise<{ lang: string; id: string }> };

/**
 * `/<lang>/orders/<id>`, the page every order email links to, for its buyer and its seller: the
 * order, what the viewer may do now, the delivery-time picker, and the parts other features add
 * (parts.tsx). While the payment is being confirmed it re-renders when the order's `order.updated`
 * event arrives in the API's event feed (order-forms.tsx `WaitForOrder`), at the latest every 25 s.
 */
export default async function OrderPage({ params }: Props) {
  const { lang, id } = await params;
  const token = await sessionToken();
  const user = token ? await currentUser() : null;
  if (!token || !user) redirect(`/${lang}/auth/sign-in?next=${encodeURIComponent(`/${lang}/orders/${id}`)}`);
  const [order, error] = await safe(apiAs(token).me.orders.get.query({ id }));
  if (error) {
    const status = problemOf(error)?.status;
    if (status === 404 || status === 422) notFound();
    throw error;
  }
  const t = messages(lang).orders;
  const viewer = viewerOf(order, user.id);
  const part = { order, lang, viewer };
  const pending = order.state === 'pending_payment';
  return (
    <Shell lang={lang}>
      <h1>{order.line_items.find((l) => l.code === 'item')?.label ?? t.order.title}</h1>
      <p className="muted">
        {viewer === 'buyer' ? t.order.youBuy : t.order.youSell} · <Link href={`/${lang}/account/orders${viewer === 'seller' ? '?as=seller' : ''}`}>{t.list.title}</Link>
      </p>
      {pending && (
        <div className="notice" role="status">
          <WaitForOrder lang={lang} id={id} />
          <p>{t.order.waiting}</p>
          {viewer === 'buyer' && <Link href={`/${lang}/orders/${id}/pay`}>{t.order.payNow}</Link>}
        </div>
      )}
      <OrderSummary order={order} lang={lang} t={t} viewer={viewer} />
      <OrderActions order={order} lang={lang} t={t.order} viewer={viewer} />
      {viewer === 'buyer' && !pending && <DeliveryBooking order={order} lang={lang} token={token} t={t.order} />}
      {viewer === 'seller' && SELLER_PARTS.map((Part, i) => <Part key={`seller-${i}`} {...part} />)}
      {PARTY_PARTS.map((Part, i) => (
        <Part key={`party-${i}`} {...part} />
      ))}
    </Shell>
  );
}
