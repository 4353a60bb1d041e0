import type { Metadata } from 'next';
import { messages, type Messages } from './messages';

type LangProps = { params: Promise<{ lang: string }> };

/**
 * `generateMetadata` for a page titled by one of the storefront's texts, in the page's language;
 * the layout's title template adds the shop's name.
 */
export function titled(pick: (t: Messages) => string) {
  return async ({ params }: LangProps): Promise<Metadata> => ({ title: pick(messages((await params).lang)) });
}

/** The language a page is shown in: the one in its URL when the marketplace has it, else the marketplace's first. */
export function pageLanguage(lang: string, locales: string[] | undefined): string {
  if (!locales || locales.length === 0 || locales.includes(lang)) return lang;
  return locales[0]!;
}
