import type { ReactNode } from 'react';
import { titled } from '../../../../../lib/page-meta';

export const generateMetadata = titled((t) => t.listings.new);

export default function NewListingLayout({ children }: { children: ReactNode }) {
  return children;
}
