'use client';

import { createContext, use, type ReactNode } from 'react';

export interface ShopFrame {
  /** the language the frame is shown in (the URL's, or the marketplace's first for an unknown one) */
  lang: string;
  name: string;
}

const ShopContext = createContext<ShopFrame>({ lang: 'en', name: 'Shop' });

/**
 * The error page is a client component that gets no params, yet speaks the page's language: the
 * layout, which knows it, hands it down here.
 */
export function ShopProvider({ value, children }: { value: ShopFrame; children: ReactNode }) {
  return <ShopContext value={value}>{children}</ShopContext>;
}

export function useShop(): ShopFrame {
  return use(ShopContext);
}
