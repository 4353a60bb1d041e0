import Link from 'next/link';
import { displayName } from '../../lib/intl';

/** Each language named in itself, so a shopper finds theirs whatever the page is in. */
export function LanguageSwitcher({ locales, current }: { locales: string[]; current: string }) {
  return (
    <nav aria-label="Language" className="languages">
      {locales.map((tag) => (
        <Link key={tag} href={`/${tag}`} lang={tag} hrefLang={tag} aria-current={tag === current ? 'page' : undefined}>
          {displayName(tag, 'language', tag)}
        </Link>
      ))}
    </nav>
  );
}
