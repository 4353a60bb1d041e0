import { redirect } from 'next/navigation';
import { ActionForm } from '../../../../_components/action-form';
import { Shell } from '../../../../_components/shell';
import { getMarketplace } from '../../../../../lib/api';
import { messages } from '../../../../../lib/messages';
import { currentUser } from '../../../../../lib/session';
import { createListingAction } from '../actions';
import { loadCatalogue } from '../catalogue';
import { listingFields } from '../listing-form';

export const dynamic = 'force-dynamic';

/** A new draft: anything may be left empty; photos come on the listing's page. */
export default async function NewListingPage({ params }: { params: Promise<{ lang: string }> }) {
  const { lang } = await params;
  if (!(await currentUser())) redirect(`/${lang}/auth/sign-in?next=/${lang}/account/listings/new`);
  const t = messages(lang);
  const marketplace = await getMarketplace();
  const catalogue = await loadCatalogue(marketplace, lang);
  return (
    <Shell lang={lang}>
      <h1>{t.listings.new}</h1>
      <ActionForm name={t.listings.new} action={createListingAction} hidden={{ lang }} submit={t.listings.create} fields={listingFields(t, marketplace, catalogue)} />
    </Shell>
  );
}
