import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { Blocks, titleIsHeading } from '../../../_components/blocks/blocks';
import { Shell } from '../../../_components/shell';
import { notFoundTitle, shopTitle } from '../../../../lib/page-meta';
import { loadPage } from '../../../../lib/pages';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ lang: string; slug: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { lang, slug } = await params;
  const page = await loadPage(slug, lang).catch(() => null);
  if (!page) return notFoundTitle(lang);
  return { ...(await shopTitle(lang, page.title)), description: page.description, ...(page.share_image ? { openGraph: { images: [{ url: page.share_image.urls.large, alt: page.share_image.alt }] } } : {}) };
}

/** A content page of the marketplace (about, campaigns…), composed of blocks by its operators. */
export default async function ContentPage({ params }: Props) {
  const { lang, slug } = await params;
  const page = await loadPage(slug, lang);
  if (!page) notFound();
  return (
    <Shell lang={lang}>
      {titleIsHeading(page.blocks) && <h1>{page.title}</h1>}
      <Blocks blocks={page.blocks} lang={lang} slug={page.slug} />
    </Shell>
  );
}
