import { safe } from '@trpc/client';
import Link from 'next/link';
import { notFound, redirect } from 'next/navigation';
import type { Field } from '../../../_components/field-row';
import { Shell } from '../../../_components/shell';
import { api, apiAs, getMarketplace, problemOf } from '../../../../lib/api';
import { countryOptions } from '../../../../lib/countries';
import { messages } from '../../../../lib/messages';
import { checkoutDraft, checkoutFieldOf, checkoutValues, CHECKOUT_URL_FIELDS, orderInput, rememberedAddress } from '../../../../lib/orders';
import { titled } from '../../../../lib/page-meta';
import { shippingName } from '../../../../lib/shipping-texts';
import { explainProblem } from '../../../../lib/problems';
import { currentUser, sessionToken } from '../../../../lib/session';
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
  // a signed-in buyer's last address fills what the URL and the draft do not say
  const user = await currentUser();
  const draft = await checkoutDraft(listingId);
  const fromUrl = checkoutValues(await searchParams, CHECKOUT_URL_FIELDS);
  const remembered = user && Object.keys(draft).length === 0 ? await rememberedAddress(user.id) : {};
  const values = { ...remembered, ...fromUrl, ...draft };
  const own = user?.id === listing.seller_id;
  const methods = [
    ...(listing.delivery.shipping ? ['shipping'] : []),
    ...(listing.custody === 'stored' ? ['collect'] : [...(listing.delivery.pickup ? ['pickup'] : []), ...(listing.delivery.buyer_arranged ? ['buyer_arranged'] : [])]),
  ];
  const method = values.method ?? methods[0];
  const input = orderInput(listingId, { ...values, ...(method ? { method } : {}) });
  const [quote, quoteError] = own ? [undefined, undefined] : await safe(apiAs(token).me.orders.quote.mutate(input));
  // a refused voucher keeps the summary: the same order quoted without it
  const [withoutVoucher] = quoteError && input.voucher_code ? await safe(apiAs(token).me.orders.quote.mutate({ ...input, voucher_code: undefined })) : [undefined];
  const summary = quote ?? withoutVoucher;
  const photo = listing.images.find((i) => i.status === 'ready')?.urls;
  const problem = quoteError ? explainProblem(problemOf(quoteError), lang, checkoutFieldOf) : undefined;
  if (quoteError && !problemOf(quoteError)) throw quoteError;
  const tableOptions = marketplace.shipping.sizes.length > 0 ? (marketplace.shipping.options ?? []) : [];
  const maxQuantity = Math.min(listing.stock, 100);

  const delivery: Field[] = [
    ...(maxQuantity > 1 ? [{ name: 'quantity', label: all.orders.quantity, type: 'number' as const, inputMode: 'numeric' as const, defaultValue: values.quantity ?? '1' }] : []),
    { name: 'method', label: t.method, type: 'select', defaultValue: method, options: methods.map((m) => ({ value: m, label: t.methods[m] ?? m })) },
    ...(method === 'shipping' && tableOptions.length > 1 ? [{ name: 'option', label: t.option, type: 'select' as const, defaultValue: values.option ?? tableOptions[0]!.key, options: tableOptions.map((o) => ({ value: o.key, label: shippingName(o, lang) })) }] : []),
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
      <p className="checkout-item" data-testid="checkout-item">
        {photo && <img src={photo.thumb} alt="" width={64} height={64} />}
        <strong>{listing.title}</strong> · <Link href={`/${lang}/listings/${listingId}`}>{t.back}</Link>
      </p>
      {own ? (
        <p className="notice" role="status" data-testid="own-listing">
          {t.ownListing}
        </p>
      ) : (
      <CheckoutForm
        lang={lang}
        listingId={listingId}
        delivery={delivery}
        address={address}
        voucher={{ name: 'voucher_code', label: t.voucher, defaultValue: values.voucher_code }}
        showAddress={method === 'shipping'}
        labels={{ name: t.title, delivery: t.delivery, address: t.address, update: t.update, place: quote?.total === 0 ? t.free : t.place }}
      >
        {summary && <LineItems items={summary.line_items} total={summary.total} currency={summary.currency} lang={lang} t={all.orders.order} caption={t.summary} />}
        {problem && (
          <div className="problem" role="alert" data-testid="quote-problem">
            {[problem.message && !Object.keys(problem.errors).length ? problem.message : undefined, ...Object.values(problem.errors)].filter(Boolean).map((m) => (
              <p key={m}>{m}</p>
            ))}
          </div>
        )}
      </CheckoutForm>
      )}
    </Shell>
  );
}
