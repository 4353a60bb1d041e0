import { ActionForm } from '../../../_components/action-form';
import type { ApiOutputs } from '../../../../lib/api';
import type { Messages } from '../../../../lib/messages';
import { formatMoney } from '../../../../lib/money';
import { listingAction, publishAction } from './actions';

type Listing = ApiOutputs['me']['listings']['get'];

/**
 * A listing the seller cannot edit right now (with the team, closed, denied): what it is, why it
 * cannot change, and what the seller can do — answer an offer, or publish a closed one again.
 */
export function StatusView({ lang, listing: l, t, valuations }: { lang: string; listing: Listing; t: Messages; valuations: boolean }) {
  const s = t.listings;
  const hidden = { lang, id: l.id };
  const note = l.status === 'closed' ? s.closedNote : l.status === 'denied' ? s.deniedNote : s.readOnly;
  return (
    <>
      <h1>{l.title || s.untitled}</h1>
      <p>
        <span className={`status ${l.status}`} data-testid="listing-status">
          {s.status[l.status]}
        </span>{' '}
        {l.price && <strong data-testid="listing-price">{formatMoney(l.price, lang)}</strong>}
      </p>
      <p className="muted">{note}</p>
      {l.status === 'denied' && l.review_note && (
        <section className="problem" aria-labelledby="review-title">
          <h2 id="review-title">{s.reviewNote}</h2>
          <p>{l.review_note}</p>
        </section>
      )}
      {l.status === 'valuation_offered' && l.offer && (
        <section className="offer" aria-labelledby="offer-title">
          <h2 id="offer-title">{s.offerTitle}</h2>
          <p>
            <strong data-testid="offer">{formatMoney(l.offer, lang)}</strong>
            {l.offer_schedule?.length ? ` ${s.offerSchedule}: ${l.offer_schedule.map((step) => `${s.offerStep(step.months)} ${formatMoney({ amount: step.amount, currency: l.offer!.currency }, lang)}`).join(', ')}` : ''}
          </p>
          {l.offer_note && <p>{l.offer_note}</p>}
          <ActionForm name={s.accept} action={listingAction} hidden={{ ...hidden, action: 'accept' }} submit={s.accept} fields={[]} />
          <ActionForm
            name={s.counter}
            action={listingAction}
            hidden={{ ...hidden, action: 'counter', currency: l.offer.currency }}
            submit={s.counter}
            fields={[{ name: 'amount', label: `${s.counterLabel} (${l.offer.currency})`, inputMode: 'decimal' }]}
          />
        </section>
      )}
      {l.images.length > 0 && (
        <ul className="photos" aria-label={s.photos.title}>
          {l.images.map((img, i) => (
            <li key={img.id} data-status={img.status}>
              {img.urls ? <img src={img.urls.thumb} alt={s.photos.photo(i + 1, l.images.length)} width={80} height={80} /> : <span className="muted">{s.photos.processing}</span>}
            </li>
          ))}
        </ul>
      )}
      {l.status === 'closed' && (
        <ActionForm
          name={s.publishTitle}
          action={publishAction}
          hidden={hidden}
          submit={s.publish}
          fields={[...(valuations ? [{ name: 'ask_valuation', label: s.askValuation, type: 'checkbox' as const }] : []), { name: 'wants_storage', label: s.wantsStorage, type: 'checkbox' as const }]}
        />
      )}
    </>
  );
}
