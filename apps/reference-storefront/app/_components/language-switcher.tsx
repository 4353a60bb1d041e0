'use client';

import Link from 'next/link';
import { usePathname, useSearchParams } from 'next/navigation';
import { displayName } from '../../lib/intl';

/**
 * Each language named in itself, so a shopper finds theirs whatever the page is in; each link
 * leads to the same page (and query) in that language.
 */
export function LanguageSwitcher({ locales, current, label }: { locales: string[]; current: string; label: string }) {
  const pathname = usePathname() ?? `/${current}`;
  const query = useSearchParams()?.toString();
  const rest = pathname.split('/').slice(2).join('/');
  return (
    <nav aria-label={label} className="languages">
      {locales.map((tag) => (
        <Link key={tag} href={`/${tag}${rest ? `/${rest}` : ''}${query ? `?${query}` : ''}`} lang={tag} hrefLang={tag} aria-current={tag === current ? 'page' : undefined}>
          {displayName(tag, 'language', tag)}
        </Link>
      ))}
    </nav>
  );
}
