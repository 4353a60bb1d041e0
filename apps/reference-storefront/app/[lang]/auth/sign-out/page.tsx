import { Shell } from '../../../_components/shell';
import { messages } from '../../../../lib/messages';
import { signOutAction } from '../actions';
import { titled } from '../../../../lib/page-meta';

export const dynamic = 'force-dynamic';
export const generateMetadata = titled((t) => t.signOut.title);

/** Signing out changes state, so it is a POST (a form), never a plain link a prefetcher could follow. */
export default async function SignOutPage({ params }: { params: Promise<{ lang: string }> }) {
  const { lang } = await params;
  const t = messages(lang).signOut;
  return (
    <Shell lang={lang}>
      <h1>{t.title}</h1>
      <form action={signOutAction} className="form" aria-label={t.title}>
        <input type="hidden" name="lang" value={lang} />
        <p>{t.text}</p>
        <button type="submit">{t.submit}</button>
      </form>
    </Shell>
  );
}
