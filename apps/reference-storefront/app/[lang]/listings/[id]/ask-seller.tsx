import Link from 'next/link';
import type { ApiOutputs } from '../../../../lib/api';
import { messages } from '../../../../lib/messages';
import { currentUser } from '../../../../lib/session';
import { MessageBox } from '../../account/messages/message-box';

type Listing = ApiOutputs['listings']['get'];

/** "Ask the seller" under a listing: a question opens (or continues) the shopper's conversation with its seller. */
export async function AskSeller({ listing, lang }: { listing: Listing; lang: string }) {
  const t = messages(lang).inbox;
  const user = await currentUser();
  const page = `/${lang}/listings/${listing.id}`;
  return (
    <section className="ask-seller" aria-labelledby="ask-title">
      <h2 id="ask-title">{t.askTitle}</h2>
      {!user ? (
        <p>
          <Link className="button secondary" href={`/${lang}/auth/sign-in?next=${encodeURIComponent(page)}`}>
            {t.askSignIn}
          </Link>
        </p>
      ) : user.id === listing.seller_id ? (
        <p className="muted">{t.ownListing}</p>
      ) : (
        <MessageBox lang={lang} name={t.askForm} label={t.askLabel} submit={t.askSubmit} subject={{ listing_id: listing.id }} back={page} />
      )}
    </section>
  );
}
