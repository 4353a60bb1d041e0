import { safe } from '@trpc/client';
import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { api, problemOf } from '../../../../lib/api';
import { notFoundTitle, shopTitle } from '../../../../lib/page-meta';

type Props = { children: ReactNode; params: Promise<{ lang: string; id: string }> };

/** The product page's title is the listing's. */
export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { lang, id } = await params;
  const [listing, error] = await safe(api().listings.get.query({ id }));
  const status = error && problemOf(error)?.status;
  // the page answers 404; Next keeps this metadata for it, so it carries the 404 page's title
  if (status === 404 || status === 422) return notFoundTitle(lang);
  return listing ? shopTitle(lang, listing.title) : {};
}

export default function ListingLayout({ children }: Props) {
  return children;
}
