import { safe } from '@trpc/client';
import Link from 'next/link';
import { notFound, redirect } from 'next/navigation';
import { cache } from 'react';
import { Shell } from '../../../../_components/shell';
import { apiAs, getMarketplace, problemOf } from '../../../../../lib/api';
import { formatDate } from '../../../../../lib/intl';
import { sellerStanding } from '../../../../../lib/listing-state';
import { messages } from '../../../../../lib/messages';
import { sessionToken } from '../../../../../lib/session';
import { loadCatalogue } from '../catalogue';
import { ConfirmAction } from '../confirm-action';
import { ListingEditor } from '../listing-editor';
import { editorModel } from '../listing-form';
import { StatusView } from '../status-view';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ lang: string; id: string }>; searchParams: Promise<{ published?: string; created?: string }> };

const loadOwn = cache(async (lang: string, id: string) => {
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
  return listing;
});

// titled by the layout ("<page> · <shop>"): a title of the page's own would drop the shop's name
/** The editor's status line: "On sale · On sale since …", "Sold", "Reserved · …" (lib/listing-state.ts). */
function editorStanding(listing: Awaited<ReturnType<typeof loadOwn>>, l: ReturnType<typeof messages>['listings'], lang: string) {
  const s = sellerStanding(listing, l);
  const since = s.key === 'published' && listing.published_at ? `${l.onSaleSince} ${formatDate(listing.published_at, lang)}` : undefined;
  return { key: s.key, label: s.label, detail: [since, s.detail].filter(Boolean).join(' · ') || undefined };
}

/**
 * The seller's page of one listing — where the marketplace's notices link. Drafts and listings on
 * sale open in the editor (the same one as a new listing); the others show their state and what
 * the seller can do. After publishing it says what happened and links to the public page.
 */
export default async function MyListingPage({ params, searchParams }: Props) {
  const { lang, id } = await params;
  const sp = await searchParams;
  const listing = await loadOwn(lang, id);
  const t = messages(lang);
  const l = t.listings;
  const marketplace = await getMarketplace();
  const editable = listing.status === 'draft' || listing.status === 'published';
  const published = sp.published ? { published: l.published, pending_approval: l.sentForApproval, pending_valuation: l.sentForValuation }[listing.status as string] : undefined;
  const notice = published ? { text: published, link: listing.status === 'published' ? `/${lang}/listings/${id}` : undefined } : sp.created ? { text: l.created } : undefined;
  return (
    <Shell lang={lang}>
      <p>
        <Link href={`/${lang}/account/listings`}>← {l.back}</Link>
      </p>
      {editable ? (
        <ListingEditor
          lang={lang}
          model={editorModel(t, marketplace, await loadCatalogue(marketplace, lang), lang, listing)}
          listing={{ ...listing, standing: editorStanding(listing, l, lang) }}
          notice={notice}
        />
      ) : (
        <>
          {notice && (
            <p className="notice" role="status" data-testid="publish-notice">
              {notice.text}
            </p>
          )}
          <StatusView lang={lang} listing={listing} t={t} valuations={marketplace.listings.valuations} />
        </>
      )}
      {listing.status === 'published' && <ConfirmAction lang={lang} id={id} action="close" label={l.close} question={l.closeConfirm} yes={l.closeYes} />}
      {listing.status === 'draft' && <ConfirmAction lang={lang} id={id} action="delete" label={l.delete} question={l.deleteConfirm} yes={l.deleteYes} />}
    </Shell>
  );
}
