import { safe } from '@trpc/client';
import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { apiAs } from '../../../../../lib/api';
import { messages } from '../../../../../lib/messages';
import { sessionToken } from '../../../../../lib/session';

type Props = { children: ReactNode; params: Promise<{ lang: string; id: string }> };

/** The seller's page of a listing is titled by the listing ("(untitled)" for a draft without one). */
export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { lang, id } = await params;
  const token = await sessionToken();
  if (!token) return {};
  const [listing] = await safe(apiAs(token).me.listings.get.query({ id }));
  const t = messages(lang).listings;
  return listing ? { title: `${listing.title || t.untitled} · ${t.title}` } : {};
}

export default function MyListingLayout({ children }: Props) {
  return children;
}
