import 'server-only';
import { safe } from '@trpc/client';
import { cache } from 'react';
import { api, getMarketplace } from './api';
import { shownCurrency } from './currency';
import { problemOf } from './problems';

/**
 * A content page in the page's language with prices in the shopper's currency: `null` when there
 * is no such page (not published, unknown slug, a bad or expired preview token), so the route can
 * answer 404 or fall back; any other failure is thrown for the error page. Cached per request:
 * the metadata and the page ask once.
 */
export const loadPage = cache(async (slug: string, lang: string, token?: string) => {
  const [marketplace] = await safe(getMarketplace());
  const currency = marketplace ? await shownCurrency(marketplace.currencies) : undefined;
  const [page, error] = await safe(
    token === undefined
      ? api().pages.get.query({ slug, locale: lang, ...(currency ? { currency } : {}) })
      : api().pages.preview.query({ slug, token, ...(currency ? { currency } : {}) }),
  );
  if (!error) return page;
  const status = problemOf(error)?.status;
  if (status === 404 || status === 422) return null;
  throw error;
});
