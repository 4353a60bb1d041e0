import Link from 'next/link';
import type { Category } from '../../lib/catalog';
import { messages } from '../../lib/messages';

/** The top categories as cards, each with its subcategories; every name links to its `/c/<slug>` page. */
export function Categories({ lang, categories }: { lang: string; categories: Category[] }) {
  if (categories.length === 0) return <p className="muted">{messages(lang).home.noCategories}</p>;
  // The API lists parents before children and siblings by position; grouping keeps that order.
  const byParent = Map.groupBy(categories, (c) => c.parent_id);
  return (
    <ul className="category-cards">
      {(byParent.get(undefined) ?? []).map((top) => (
        <li key={top.id} className="card">
          <h3>
            <Link href={`/${lang}/c/${top.slug}`}>{top.name}</Link>
          </h3>
          {byParent.has(top.id) && (
            <ul className="chips">
              {byParent.get(top.id)!.map((c) => (
                <li key={c.id}>
                  <Link href={`/${lang}/c/${c.slug}`}>{c.name}</Link>
                </li>
              ))}
            </ul>
          )}
        </li>
      ))}
    </ul>
  );
}
