import { safe } from '@trpc/client';
import Link from 'next/link';
import { notFound, redirect } from 'next/navigation';
import type { Field } from '../../../_components/action-form';
import { Shell } from '../../../_components/shell';
import { api, apiAs, getMarketplace, problemOf } from '../../../../lib/api';
import { countryOptions } from '../../../../lib/countries';
import { messages } from '../../../../lib/messages';
import { checkoutDraft, checkoutFieldOf, checkoutValues, CHECKOUT_URL_FIELDS, orderInput } from '../../../../lib/orders';
import { titled } from '../../../../lib/page-meta';
import { explainProblem } from '../../../../lib/problems';
import { sessionToken } from '../../../../lib/session';
import { LineItems } from '../../orders/line-items';
import { CheckoutForm } from './checkout-form';

export const dynamic = 'force-dynamic';
export const generateMetadata = titled((t) => t.orders.checkout.title);

type Props = { params: Promise<{ lang: string; listingId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

/**
 * `/<lang>/checkout/<listing id>`: delivery method, option, address and voucher; the quote for
 * those choices (quoted here, on the server, each time they change) with its line items exactly as
 * the API returns them; then place → pay.
 */
export default async function CheckoutPage({ params, searchParams }: Props) {
  const { lang, listingId } = await params;
  const token = await sessionToken();
  if (!token) redirect(`/${lang}/auth/sign-in?next=${encodeURIComponent(`/${lang}/listings/${listingId}`)}`);
  const [listing, error] = await safe(api().listings.get.query({ id: listingId }));
  if (error) {
    const status = problemOf(error)?.status;
    if (status === 404 || status === 422) notFound();
    throw error;
  }
  const marketplace = await getMarketplace();
  const all = messages(lang);
  const t = all.orders.checkout;
  // the choices from the address; the buyer's name, address and phone from the draft cookie, never from a URL
  const values = { ...checkoutValues(await searchParams, CHECKOUT_URL_FIELDS), ...(await checkoutDraft(listingId)) };
  const methods = [
    ...(listing.delivery.shipping ? ['shipping'] : []),
    ...(listing.custody === 'stored' ? ['collect'] : [...(listing.delivery.pickup ? ['pickup'] : []), ...(listing.delivery.buyer_arranged ? ['buyer_arranged'] : [])]),
  ];
  const method = values.method ?? methods[0];
  const input = orderInput(listingId, { ...values, ...(method ? { method } : {}) });
  const [quote, quoteError] = await safe(apiAs(token).me.orders.quote.mutate(input));
  const problem = quoteError ? explainProblem(problemOf(quoteError), lang, checkoutFieldOf) : undefined;
  if (quoteError && !problemOf(quoteError)) throw quoteError;
  const tableOptions = marketplace.shipping.sizes.length > 0 ? (marketplace.shipping.options ?? []) : [];
  const maxQuantity = Math.min(listing.stock, 100);

  const delivery: Field[] = [
    ...(maxQuantity > 1 ? [{ name: 'quantity', label: all.orders.quantity, type: 'number' as const, inputMode: 'numeric' as const, defaultValue: values.quantity ?? '1' }] : []),
    { name: 'method', label: t.method, type: 'select', defaultValue: method, options: methods.map((m) => ({ value: m, label: t.methods[m] ?? m })) },
    ...(method === 'shipping' && tableOptions.length > 1 ? [{ name: 'option', label: t.option, type: 'select' as const, defaultValue: values.option ?? tableOptions[0]!.key, options: tableOptions.map((o) => ({ value: o.key, label: o.name })) }] : []),
  ];
  const zones = [...new Set(marketplace.shipping.zones.flatMap((z) => z.countries))];
  const address: Field[] = [
    { name: 'name', label: t.name, autoComplete: 'name', defaultValue: values.name },
    { name: 'line1', label: t.line1, autoComplete: 'address-line1', defaultValue: values.line1 },
    { name: 'line2', label: t.line2, autoComplete: 'address-line2', defaultValue: values.line2 },
    { name: 'postal_code', label: t.postal_code, autoComplete: 'postal-code', defaultValue: values.postal_code },
    { name: 'city', label: t.city, autoComplete: 'address-level2', defaultValue: values.city },
    { name: 'country', label: t.country, type: 'select', autoComplete: 'country', defaultValue: values.country ?? '', options: [{ value: '', label: t.chooseCountry }, ...countryOptions(lang, zones.length ? zones : [listing.location.country ?? ''])] },
    { name: 'phone', label: t.phone, type: 'tel', autoComplete: 'tel', defaultValue: values.phone },
  ];
  return (
    <Shell lang={lang}>
      <h1>{t.title}</h1>
      <p>
        <strong>{listing.title}</strong> · <Link href={`/${lang}/listings/${listingId}`}>{t.back}</Link>
      </p>
      <CheckoutForm
        lang={lang}
        listingId={listingId}
        delivery={delivery}
        address={address}
        voucher={{ name: 'voucher_code', label: t.voucher, defaultValue: values.voucher_code }}
        showAddress={method === 'shipping'}
        labels={{ name: t.title, delivery: t.delivery, address: t.address, update: t.update, place: quote?.total === 0 ? t.free : t.place }}
      >
        {quote && <LineItems items={quote.line_items} total={quote.total} currency={quote.currency} lang={lang} t={all.orders.order} caption={t.summary} />}
        {problem && (
          <div className="problem" role="alert" data-testid="quote-problem">
            {[problem.message && !Object.keys(problem.errors).length ? problem.message : undefined, ...Object.values(problem.errors)].filter(Boolean).map((m) => (
              <p key={m}>{m}</p>
            ))}
          </div>
        )}
      </CheckoutForm>
    </Shell>
  );
}
