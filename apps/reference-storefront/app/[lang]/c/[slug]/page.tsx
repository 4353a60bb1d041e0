import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { ListingBrowser } from '../../../_components/listing-browser';
import { Shell } from '../../../_components/shell';
import { getMarketplace } from '../../../../lib/api';
import type { QueryParams } from '../../../../lib/browse';
import { categoryTrail, getCategories } from '../../../../lib/catalog';
import { messages } from '../../../../lib/messages';
import { notFoundTitle, shopTitle } from '../../../../lib/page-meta';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ lang: string; slug: string }>; searchParams: Promise<QueryParams> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { lang, slug } = await params;
  const trail = categoryTrail((await getCategories(lang)).items, slug);
  return trail ? shopTitle(lang, trail.at(-1)!.name) : notFoundTitle(lang);
}

/**
 * A category's page at `/<lang>/c/<slug>` (the slug is the same in every language; the name is the
 * page's): where it sits, its subcategories, and its listings (subcategories' included) with filters.
 */
export default async function CategoryPage({ params, searchParams }: Props) {
  const { lang, slug } = await params;
  const [{ items: categories }, marketplace] = await Promise.all([getCategories(lang), getMarketplace()]);
  const trail = categoryTrail(categories, slug);
  if (!trail) notFound();
  const category = trail.at(-1)!;
  const children = categories.filter((c) => c.parent_id === category.id);
  const t = messages(lang);
  return (
    <Shell lang={lang}>
      <nav aria-label={t.browse.breadcrumb} className="breadcrumbs">
        <ol>
          <li>
            <Link href={`/${lang}`}>{t.chrome.home}</Link>
          </li>
          {trail.map((c) => (
            <li key={c.id}>
              {c === category ? (
                <span aria-current="page">{c.name}</span>
              ) : (
                <Link href={`/${lang}/c/${c.slug}`}>{c.name}</Link>
              )}
            </li>
          ))}
        </ol>
      </nav>
      <h1>{category.name}</h1>
      {children.length > 0 && (
        <nav aria-label={t.browse.subcategories} className="subcategories">
          <ul className="chips">
            {children.map((c) => (
              <li key={c.id}>
                <Link href={`/${lang}/c/${c.slug}`}>{c.name}</Link>
              </li>
            ))}
          </ul>
        </nav>
      )}
      <ListingBrowser lang={lang} path={`/${lang}/c/${slug}`} params={await searchParams} marketplace={marketplace} category={category} />
    </Shell>
  );
}
