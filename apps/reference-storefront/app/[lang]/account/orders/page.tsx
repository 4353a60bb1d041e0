import { safe } from '@trpc/client';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { ApiProblem } from '../../../_components/api-problem';
import { Shell } from '../../../_components/shell';
import { apiAs, problemOf } from '../../../../lib/api';
import { formatDate } from '../../../../lib/intl';
import { messages } from '../../../../lib/messages';
import { formatMoney } from '../../../../lib/money';
import { titled } from '../../../../lib/page-meta';
import { problemText } from '../../../../lib/problems';
import { sessionToken } from '../../../../lib/session';

export const dynamic = 'force-dynamic';
export const generateMetadata = titled((t) => t.orders.list.title);

type Props = { params: Promise<{ lang: string }>; searchParams: Promise<{ as?: string; offset?: string }> };

const PAGE = 20;

/** The orders the user bought (default) or, with `?as=seller`, sold; newest first, 20 a page. */
export default async function OrdersPage({ params, searchParams }: Props) {
  const { lang } = await params;
  const q = await searchParams;
  const as = q.as === 'seller' ? 'seller' : 'buyer';
  const offset = Math.min(Math.max(Number.parseInt(q.offset ?? '0', 10) || 0, 0), 10000);
  const base = `/${lang}/account/orders${as === 'seller' ? '?as=seller&' : '?'}`;
  const token = await sessionToken();
  if (!token) redirect(`/${lang}/auth/sign-in?next=${encodeURIComponent(`/${lang}/account/orders${as === 'seller' ? '?as=seller' : ''}`)}`);
  const t = messages(lang).orders;
  // one more than shown: whether an older page exists
  const [page, error] = await safe(apiAs(token).me.orders.list.query({ as, offset, limit: PAGE + 1 }));
  if (error && problemOf(error)?.status === 401) redirect(`/${lang}/auth/sign-in?next=${encodeURIComponent(`/${lang}/account/orders`)}`);
  const items = page?.items.slice(0, PAGE) ?? [];
  return (
    <Shell lang={lang}>
      <h1>{t.list.title}</h1>
      <nav aria-label={t.list.title} className="tabs">
        <Link href={`/${lang}/account/orders`} aria-current={as === 'buyer' ? 'page' : undefined}>
          {t.list.bought}
        </Link>
        <Link href={`/${lang}/account/orders?as=seller`} aria-current={as === 'seller' ? 'page' : undefined}>
          {t.list.sold}
        </Link>
      </nav>
      {error ? (
        <ApiProblem detail={problemText(error, lang)} />
      ) : items.length === 0 ? (
        <p className="muted">{t.list.none}</p>
      ) : (
        <div className="table-scroll">
          <table className="orders" data-testid="orders">
            <caption className="visually-hidden">{as === 'seller' ? t.list.sold : t.list.bought}</caption>
            <thead>
              <tr>
                <th scope="col">{t.list.item}</th>
                <th scope="col">{t.list.date}</th>
                <th scope="col">{t.list.state}</th>
                <th scope="col">{t.list.total}</th>
              </tr>
            </thead>
            <tbody>
              {items.map((o) => (
                <tr key={o.id}>
                  <td>
                    <Link href={`/${lang}/orders/${o.id}`}>{o.line_items.find((l) => l.code === 'item')?.label ?? o.id}</Link>
                  </td>
                  <td>{formatDate(o.created_at, lang)}</td>
                  <td data-state={o.state}>{t.order.states[o.state] ?? o.state}</td>
                  <td>{formatMoney({ amount: o.total, currency: o.currency }, lang)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p className="pager">
        {offset > 0 && <Link href={`${base}offset=${Math.max(offset - PAGE, 0)}`}>← {t.list.previous}</Link>}{' '}
        {(page?.items.length ?? 0) > PAGE && offset + PAGE <= 10000 && <Link href={`${base}offset=${offset + PAGE}`}>{t.list.next} →</Link>}
      </p>
    </Shell>
  );
}
