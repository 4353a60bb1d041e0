import type { ReactNode } from 'react';
import { titled } from '../../../../lib/page-meta';

/** The seller's pages are titled here and in the layouts below, apart from the pages' own code. */
export const generateMetadata = titled((t) => t.listings.title);

export default function SellerLayout({ children }: { children: ReactNode }) {
  return children;
}
