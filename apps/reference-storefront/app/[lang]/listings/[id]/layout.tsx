import { safe } from '@trpc/client';
import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { api } from '../../../../lib/api';

type Props = { children: ReactNode; params: Promise<{ lang: string; id: string }> };

/** The product page's title is the listing's (an unknown id gets the 404 page's own). */
export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { id } = await params;
  const [listing] = await safe(api().listings.get.query({ id }));
  return listing ? { title: listing.title } : {};
}

export default function ListingLayout({ children }: Props) {
  return children;
}
