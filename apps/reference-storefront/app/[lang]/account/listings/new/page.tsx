import Link from 'next/link';
import { redirect } from 'next/navigation';
import { Shell } from '../../../../_components/shell';
import { getMarketplace } from '../../../../../lib/api';
import { messages } from '../../../../../lib/messages';
import { currentUser } from '../../../../../lib/session';
import { loadCatalogue } from '../catalogue';
import { ListingEditor } from '../listing-editor';
import { editorModel } from '../listing-form';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ lang: string }> };

// titled by the layout ("<page> · <shop>"): a title of the page's own would drop the shop's name
/** A new listing, in the same editor as an existing one: it becomes a draft on its first save. */
export default async function NewListingPage({ params }: Props) {
  const { lang } = await params;
  if (!(await currentUser())) redirect(`/${lang}/auth/sign-in?next=/${lang}/account/listings/new`);
  const t = messages(lang);
  const marketplace = await getMarketplace();
  return (
    <Shell lang={lang}>
      <p>
        <Link href={`/${lang}/account/listings`}>← {t.listings.back}</Link>
      </p>
      <ListingEditor lang={lang} model={editorModel(t, marketplace, await loadCatalogue(marketplace, lang), lang)} listing={{ title: '', status: 'draft', images: [] }} />
    </Shell>
  );
}
