import type { Metadata } from 'next';
import Link from 'next/link';
import { read, requireOperator } from '../../../lib/session';
import { money, str, when, words, type Body } from '../../../lib/format';
import { approveListing, denyListing, offerPrice, setCommission, setCustody, setShippingSize } from '../../team-actions';
import type { ComponentProps } from 'react';
import { Form } from '../../_components/form';
import { Facts } from '../../_components/data';
import { SellerName } from '../../_components/seller';
import { FormSection, Section } from '../../_components/section';

export const metadata: Metadata = { title: 'Listing' };

/** One listing as the team reviews it: photos, seller, price and description; approve, deny with a note, offer a price. */
export default async function ListingPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { api, canWrite, operator } = await requireOperator();
  const { listing } = await read(api.listings.get.query({ id }));
  const l = listing as Body;
  const price = l.price as { amount: number; currency: string } | undefined;
  const offer = l.offer as { amount: number; currency: string } | undefined;
  const photos = ((l.images as { id: string; urls?: { medium: string; large: string } }[] | undefined) ?? []).filter((i) => i.urls);
  const status = str(l, 'status');
  const reviewable = status === 'pending_approval';
  const valuable = status === 'pending_valuation' || status === 'pending_approval';
  const [{ marketplace }, { items: sites }] = await Promise.all([read(api.settings.get.query({})), canWrite ? read(api.sites.list.query({})) : { items: [] }]);
  const currencies = (marketplace.currencies as string[] | undefined) ?? [price?.currency ?? 'EUR'];
  const sizes = ((marketplace.shipping as { sizes?: { key: string; name: string }[] } | undefined)?.sizes ?? []).map((z) => ({ value: z.key, label: z.name }));
  const site = l.site as { id: string; name?: string; city?: string } | undefined;
  // the marketplace's active sites, and the listing's own when it is no longer one of them
  const siteOptions = [
    { value: '', label: 'None' },
    ...sites.map((x) => ({ value: x.id, label: `${x.name}, ${x.city}` })),
    ...(site && !sites.some((x) => x.id === site.id) ? [{ value: site.id, label: site.name ?? site.id }] : []),
  ];
  // the team's settings of the listing, one form each
  const changes: ComponentProps<typeof FormSection>[] = [
    {
      id: 'size-h',
      title: 'Shipping size',
      action: setShippingSize,
      name: 'Set the shipping size',
      submit: 'Set size',
      success: 'Shipping size set.',
      fields: [{ name: 'size', label: 'Size', type: 'select', defaultValue: str(l, 'shipping_size'), options: [{ value: '', label: 'None' }, ...sizes] }],
    },
    {
      id: 'commission-h',
      title: 'Commission',
      action: setCommission,
      name: 'Set the commission',
      submit: 'Set commission',
      success: 'Commission set.',
      fields: [{ name: 'percent', label: 'Percent for this listing', inputMode: 'decimal', defaultValue: typeof l.commission_percent === 'number' ? String(l.commission_percent) : '', hint: 'Empty: the marketplace’s commission.' }],
    },
    {
      id: 'custody-h',
      title: 'Custody',
      action: setCustody,
      name: 'Set custody',
      submit: 'Set custody',
      success: 'Custody set.',
      fields: [
        { name: 'custody', label: 'Who has the item', type: 'select', defaultValue: str(l, 'custody') || 'seller', options: [{ value: 'seller', label: 'The seller' }, { value: 'collecting', label: 'We are collecting it' }, { value: 'stored', label: 'Stored at a site' }] },
        { name: 'site', label: 'Site (collecting or stored)', type: 'select', defaultValue: site?.id ?? '', options: siteOptions },
      ],
    },
  ];
  return (
    <main id="main">
      <p className="back">
        <Link href={`/listings?status=${status}`}>← Listings {words(status)}</Link>
      </p>
      <h1>{str(l, 'title') || 'Untitled listing'}</h1>
      <div className="photos">
        {photos.length === 0 ? <p className="muted">No photos.</p> : photos.map((p, n) => <img key={p.id} src={p.urls!.medium} alt={`Photo ${n + 1} of ${str(l, 'title')}`} width={320} height={320} />)}
      </div>
      <Facts
        items={[
          ['Status', <span data-testid="listing-status">{words(status)}</span>],
          ['Price', price ? money(price.amount, price.currency) : 'None yet'],
          !!offer && ['Our offer', money(offer!.amount, offer!.currency)],
          ['Seller', <SellerName seller={listing.seller} />],
          ['Custody', <span data-testid="custody">{`${words(l.custody)}${site ? ` at ${site.name ?? site.id}` : ''}${l.wants_storage ? ' (the seller asked for storage)' : ''}`}</span>],
          ['Shipping size', <span data-testid="shipping-size">{sizes.find((z) => z.value === l.shipping_size)?.label ?? (str(l, 'shipping_size') || 'None')}</span>],
          ['Commission', typeof l.commission_percent === 'number' ? `${l.commission_percent} %` : 'The marketplace’s'],
          !!l.review_note && ['Review note', str(l, 'review_note')],
          ['Changed', when(l.updated_at)],
          ['Description', str(l, 'description') || '—'],
        ]}
      />
      {canWrite && (reviewable || valuable) && (
        <div className="actions">
          {reviewable && (
            <Section id="approve-h" title="Approve">
              <p>The listing goes on sale and the seller is emailed.</p>
              <Form action={approveListing} name="Approve listing" submit="Approve" hidden={{ id }} success="Approved: the listing is on sale." />
            </Section>
          )}
          {reviewable && (
            <FormSection id="deny-h" title="Deny" action={denyListing} name="Deny listing" submit="Deny" danger hidden={{ id }} success="Denied: the seller is emailed the note." fields={[{ name: 'note', label: 'Note to the seller', type: 'textarea', required: true, rows: 3 }]} />
          )}
          {valuable && (
            <FormSection
              id="offer-h"
              title="Offer a price"
              action={offerPrice}
              name="Offer a price"
              submit="Send the offer"
              hidden={{ id }}
              success="Offer sent: the seller answers from the storefront."
              fields={[
                { name: 'amount', label: 'Price', inputMode: 'decimal', required: true, hint: 'e.g. 1200 or 1200.50' },
                { name: 'currency', label: 'Currency', type: 'select', defaultValue: price?.currency ?? currencies[0], options: currencies.map((c) => ({ value: c, label: c })) },
                { name: 'note', label: 'Note to the seller (optional)', type: 'textarea', rows: 2 },
                { name: 'schedule', label: 'Price drops (optional)', hint: 'months after the offer:price, e.g. 2:900, 4:800 — each lower than the one before' },
              ]}
            />
          )}
        </div>
      )}
      {canWrite && (
        <div className="actions">
          {changes.map((c) => (
            <FormSection key={c.id} {...c} hidden={{ id }} />
          ))}
        </div>
      )}
      {!canWrite && <p className="muted">{operator.role === 'viewer' ? 'You can read this listing; only admins can change it.' : ''}</p>}
    </main>
  );
}
