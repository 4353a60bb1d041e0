import { safe } from '@trpc/client';
import Link from 'next/link';
import { notFound, redirect } from 'next/navigation';
import { ActionForm } from '../../../../_components/action-form';
import { Shell } from '../../../../_components/shell';
import { apiAs, getMarketplace, problemOf } from '../../../../../lib/api';
import { formatMoney } from '../../../../../lib/money';
import { messages } from '../../../../../lib/messages';
import { sessionToken } from '../../../../../lib/session';
import { listingAction, publishAction, saveListingAction, uploadPhotoAction } from '../actions';
import { loadCatalogue } from '../catalogue';
import { listingFields } from '../listing-form';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ lang: string; id: string }> };

/**
 * The seller's page of one listing — where the marketplace's notices link: status, the offer to
 * accept or counter, the review note, photos, content, and what can be done next.
 */
export default async function MyListingPage({ params }: Props) {
  const { lang, id } = await params;
  const back = `/${lang}/account/listings/${id}`;
  const token = await sessionToken();
  if (!token) redirect(`/${lang}/auth/sign-in?next=${back}`);
  const [listing, error] = await safe(apiAs(token).me.listings.get.query({ id }));
  if (error) {
    const status = problemOf(error)?.status;
    if (status === 401) redirect(`/${lang}/auth/sign-in?next=${back}`);
    if (status === 404 || status === 422) notFound();
    throw error;
  }
  const t = messages(lang);
  const l = t.listings;
  const marketplace = await getMarketplace();
  const editable = listing.status === 'draft' || listing.status === 'published';
  const hidden = { lang, id };
  return (
    <Shell lang={lang}>
      <p>
        <Link href={`/${lang}/account/listings`}>← {l.back}</Link>
      </p>
      <h1>{listing.title || l.untitled}</h1>
      <p>
        <span className={`status ${listing.status}`} data-testid="listing-status">
          {l.status[listing.status]}
        </span>{' '}
        {listing.price && <strong>{formatMoney(listing.price, lang)}</strong>}
      </p>

      {listing.status === 'denied' && listing.review_note && (
        <section className="problem" aria-label={l.reviewNote}>
          <h2>{l.reviewNote}</h2>
          <p>{listing.review_note}</p>
        </section>
      )}

      {listing.status === 'valuation_offered' && listing.offer && (
        <section className="offer" aria-label={l.offerTitle}>
          <h2>{l.offerTitle}</h2>
          <p>
            <strong data-testid="offer">{formatMoney(listing.offer, lang)}</strong>
            {listing.offer_schedule?.length ? ` ${l.offerSchedule}: ${listing.offer_schedule.map((s) => `+${s.months} → ${formatMoney({ amount: s.amount, currency: listing.offer!.currency }, lang)}`).join(', ')}` : ''}
          </p>
          {listing.offer_note && <p>{listing.offer_note}</p>}
          <ActionForm name={l.accept} action={listingAction} hidden={{ ...hidden, action: 'accept' }} submit={l.accept} fields={[]} />
          <ActionForm name={l.counter} action={listingAction} hidden={{ ...hidden, action: 'counter', currency: listing.offer.currency }} submit={l.counter} fields={[{ name: 'amount', label: `${l.counterLabel} (${listing.offer.currency})` }]} />
        </section>
      )}

      <h2>{l.photos}</h2>
      {listing.images.length === 0 ? (
        <p className="muted">{l.noPhotos}</p>
      ) : (
        <ul className="photos">
          {listing.images.map((img) => (
            <li key={img.id} data-status={img.status}>
              {img.urls ? <img src={img.urls.thumb} alt="" width={80} height={80} /> : <span className="muted">{img.status === 'failed' ? l.failed : l.processing}</span>}
            </li>
          ))}
        </ul>
      )}
      {editable && (
        <ActionForm
          name={l.upload}
          action={uploadPhotoAction}
          hidden={hidden}
          submit={l.upload}
          success={l.uploaded}
          fields={[{ name: 'photo', label: l.photo, type: 'file', accept: 'image/jpeg,image/png,image/webp' }]}
        />
      )}

      {(listing.status === 'draft' || listing.status === 'closed') && (
        <>
          <h2>{l.publishTitle}</h2>
          <ActionForm
            name={l.publishTitle}
            action={publishAction}
            hidden={hidden}
            submit={l.publish}
            showIssues
            fields={[
              ...(marketplace.listings.valuations ? [{ name: 'ask_valuation', label: l.askValuation, type: 'checkbox' as const }] : []),
              { name: 'wants_storage', label: l.wantsStorage, type: 'checkbox' as const },
            ]}
          />
        </>
      )}
      {listing.status === 'published' && <ActionForm name={l.close} action={listingAction} hidden={{ ...hidden, action: 'close' }} submit={l.close} fields={[]} />}
      {listing.status === 'draft' && <ActionForm name={l.delete} action={listingAction} hidden={{ ...hidden, action: 'delete' }} submit={l.delete} fields={[]} />}

      {editable && (
        <>
          <h2>{l.edit}</h2>
          <ActionForm name={l.edit} action={saveListingAction} hidden={hidden} submit={l.save} success={l.saved} fields={listingFields(t, marketplace, await loadCatalogue(marketplace, lang), listing)} />
        </>
      )}
    </Shell>
  );
}
