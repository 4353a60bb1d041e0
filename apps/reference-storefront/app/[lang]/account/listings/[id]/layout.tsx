import { safe } from '@trpc/client';
import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { apiAs, problemOf } from '../../../../../lib/api';
import { messages } from '../../../../../lib/messages';
import { notFoundTitle, shopTitle } from '../../../../../lib/page-meta';
import { sessionToken } from '../../../../../lib/session';

type Props = { children: ReactNode; params: Promise<{ lang: string; id: string }> };

/** The seller's page of a listing is titled by the listing ("(untitled)" for a draft without one) */
export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { lang, id } = await params;
  const token = await sessionToken();
  if (!token) return {};
  const [listing, error] = await safe(apiAs(token).me.listings.get.query({ id }));
  const status = error && problemOf(error)?.status;
  // the page answers 404; Next keeps this metadata for it, so it carries the 404 page's title
  if (status === 404 || status === 422) return notFoundTitle(lang);
  const t = messages(lang).listings;
  return listing ? shopTitle(lang, `${listing.title || t.untitled} · ${t.title}`) : {};
}

export default function MyListingLayout({ children }: Props) {
  return children;
}
