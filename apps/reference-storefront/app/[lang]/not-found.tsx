import { safe } from '@trpc/client';
import type { Metadata } from 'next';
import { headers } from 'next/headers';
import Link from 'next/link';
import { getMarketplace } from '../../lib/api';
import { messages } from '../../lib/messages';
import { notFoundTitle, pageLanguage } from '../../lib/page-meta';
import { PATH_HEADER } from '../../proxy';

/** Next gives a 404 page no params: the language comes from the path the proxy passes on. */
async function language(): Promise<string> {
  const asked = (await headers()).get(PATH_HEADER)?.split('/')[1] ?? '';
  const [marketplace] = await safe(getMarketplace());
  return pageLanguage(asked, marketplace?.locales ?? ['en']);
}

export async function generateMetadata(): Promise<Metadata> {
  return notFoundTitle(await language());
}

/**
 * Shown for `notFound()` anywhere under a language (an unknown language, listing, category…) and,
 * through the catch-all route beside this file, for any path the shop does not have; inside the
 * layout's header and footer, in the page's language (the marketplace's first for an unknown one).
 */
export default async function NotFound() {
  const lang = await language();
  const t = messages(lang).notFound;
  return (
    <main id="main" tabIndex={-1} className="wrap page status-page">
      <p className="status-code" aria-hidden="true">
        404
      </p>
      <h1>{t.title}</h1>
      <p>{t.text}</p>
      <p className="actions">
        <Link href={`/${lang}`} className="button">
          {t.home}
        </Link>
        <Link href={`/${lang}/search`} className="button secondary">
          {t.search}
        </Link>
      </p>
    </main>
  );
}
