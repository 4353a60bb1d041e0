import { safe } from '@trpc/client';
import type { Metadata } from 'next';
import { getMarketplace } from './api';
import { messages, type Messages } from './messages';

type LangProps = { params: Promise<{ lang: string }> };

/**
 * A page's metadata: "<page> · <shop>" (the shop's name alone for the home page), spelled out
 * rather than left to the layout's title template (a layout that sets a title of its own, like the
 * seller's pages, hides that template from the pages below it).
 *
 * Next renders a 404 with the metadata of the page that called `notFound()`, so a page that will
 * answer 404 asks for `notFoundTitle` instead; for a language the marketplace lacks this does it.
 */
export async function shopTitle(lang: string, text?: string): Promise<Metadata> {
  const [marketplace] = await safe(getMarketplace());
  const shown = pageLanguage(lang, marketplace?.locales);
  const title = shown === lang ? text : messages(shown).notFound.title;
  return { title: { absolute: [title, marketplace?.name].filter(Boolean).join(' · ') || messages(shown).chrome.shop } };
}

/** The 404 page's title, for a page about to call `notFound()`. */
export function notFoundTitle(lang: string): Promise<Metadata> {
  return shopTitle(lang, messages(lang).notFound.title);
}

/** `generateMetadata` for a page titled by one of the storefront's texts, in the page's language. */
export function titled(pick: (t: Messages) => string) {
  return async ({ params }: LangProps): Promise<Metadata> => {
    const { lang } = await params;
    return shopTitle(lang, pick(messages(lang)));
  };
}

/** The language a page is shown in: the one in its URL when the marketplace has it, else the marketplace's first. */
export function pageLanguage(lang: string, locales: string[] | undefined): string {
  if (!locales || locales.length === 0 || locales.includes(lang)) return lang;
  return locales[0]!;
}
