import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { Blocks, titleIsHeading } from '../../../_components/blocks/blocks';
import { Shell } from '../../../_components/shell';
import { messages } from '../../../../lib/messages';
import { notFoundTitle, shopTitle } from '../../../../lib/page-meta';
import { loadPage } from '../../../../lib/pages';

// A draft: rendered on every request, never cached (proxy.ts adds no-store and noindex headers).
export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ lang: string; slug: string }>; searchParams: Promise<{ token?: string | string[] }> };

const tokenOf = async (searchParams: Props['searchParams']) => {
  const token = (await searchParams).token;
  return typeof token === 'string' && token.length > 0 ? token : undefined;
};

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const { lang, slug } = await params;
  const token = await tokenOf(searchParams);
  const page = token ? await loadPage(slug, lang, token).catch(() => null) : null;
  const robots = { index: false, follow: false };
  if (!page) return { ...(await notFoundTitle(lang)), robots };
  return { ...(await shopTitle(lang, `${messages(lang).pages.previewTitle}: ${page.title}`)), robots };
}

/** The draft of a page, for whoever holds a preview link from the console (`pages preview-link`). */
export default async function PreviewPage({ params, searchParams }: Props) {
  const { lang, slug } = await params;
  const token = await tokenOf(searchParams);
  const page = token ? await loadPage(slug, lang, token) : null;
  if (!page) notFound();
  return (
    <Shell lang={lang}>
      <p className="notice" role="status">
        <strong>{messages(lang).pages.previewTitle}.</strong> {messages(lang).pages.previewNote}
      </p>
      {titleIsHeading(page.blocks) && <h1>{page.title}</h1>}
      <Blocks blocks={page.blocks} lang={lang} slug={page.slug} />
    </Shell>
  );
}
