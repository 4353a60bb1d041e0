import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { notFoundTitle } from '../../../lib/page-meta';

/** Any path under a language that no page matches: the shop's own 404 page rather than Next's plain one. */
export default function UnknownPage(): never {
  notFound();
}

export async function generateMetadata({ params }: { params: Promise<{ lang: string }> }): Promise<Metadata> {
  return notFoundTitle((await params).lang);
}
