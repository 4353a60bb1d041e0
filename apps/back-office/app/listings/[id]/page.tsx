import type { Metadata } from 'next';
import Link from 'next/link';
import { read, requireOperator } from '../../../lib/session';
import { money, str, when, words, type Body } from '../../../lib/format';
import { approveListing, denyListing, offerPrice } from '../../team-actions';
import { Form } from '../../_components/form';
import { Facts } from '../../_components/data';

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
  const { marketplace } = await read(api.settings.get.query({}));
  const currencies = (marketplace.currencies as string[] | undefined) ?? [price?.currency ?? 'EUR'];
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
          ['Seller', <code>{str(l, 'seller_id')}</code>],
          ['Custody', `${words(l.custody)}${l.wants_storage ? ' (the seller asked for storage)' : ''}`],
          typeof l.commission_percent === 'number' && ['Commission', `${l.commission_percent} %`],
          !!l.review_note && ['Review note', str(l, 'review_note')],
          ['Changed', when(l.updated_at)],
          ['Description', str(l, 'description') || '—'],
        ]}
      />
      {canWrite && (reviewable || valuable) && (
        <div className="actions">
          {reviewable && (
            <section aria-labelledby="approve-h">
              <h2 id="approve-h">Approve</h2>
              <p>The listing goes on sale and the seller is emailed.</p>
              <Form action={approveListing} name="Approve listing" submit="Approve" hidden={{ id }} success="Approved: the listing is on sale." />
            </section>
          )}
          {reviewable && (
            <section aria-labelledby="deny-h">
              <h2 id="deny-h">Deny</h2>
              <Form action={denyListing} name="Deny listing" submit="Deny" danger hidden={{ id }} success="Denied: the seller is emailed the note." fields={[{ name: 'note', label: 'Note to the seller', type: 'textarea', required: true, rows: 3 }]} />
            </section>
          )}
          {valuable && (
            <section aria-labelledby="offer-h">
              <h2 id="offer-h">Offer a price</h2>
              <Form
                action={offerPrice}
                name="Offer a price"
                submit="Send the offer"
                hidden={{ id }}
                success="Offer sent: the seller answers from the storefront."
                fields={[
                  { name: 'amount', label: 'Price', inputMode: 'decimal', required: true, hint: 'e.g. 1200 or 1200.50' },
                  { name: 'currency', label: 'Currency', type: 'select', defaultValue: price?.currency ?? currencies[0], options: currencies.map((c) => ({ value: c, label: c })) },
                  { name: 'note', label: 'Note to the seller (optional)', type: 'textarea', rows: 2 },
                ]}
              />
            </section>
          )}
        </div>
      )}
      {!canWrite && <p className="muted">{operator.role === 'viewer' ? 'You can read this listing; only admins can change it.' : ''}</p>}
    </main>
  );
}
