import 'server-only';
import { safe } from '@trpc/client';
import { getMarketplace } from './api';
import { text } from './forms';

/** A language tag's shape (`en`, `sv`, `pt-BR`): used only while the marketplace cannot be asked. */
const LANGUAGE_TAG = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

/**
 * The page language a server action was posted from (its `lang` field), checked against the
 * marketplace's languages: actions build `/${lang}/…` redirects from it, so a posted `/evil.example`
 * must never become `//evil.example/…`. Anything else is the marketplace's first language.
 */
export async function formLang(form: FormData): Promise<string> {
  const asked = text(form, 'lang');
  const [marketplace] = await safe(getMarketplace());
  const locales = marketplace?.locales ?? [];
  if (locales.includes(asked)) return asked;
  if (locales.length > 0) return locales[0]!;
  return LANGUAGE_TAG.test(asked) ? asked : 'en';
}
