import type { Body } from './format';

/** Where the storefront shows a published page: the front page at `/<lang>`, the others at `/<lang>/pages/<slug>`. */
export function storefrontPageUrl(storefront: unknown, slug: string, locale: string): string | null {
  if (typeof storefront !== 'string' || !storefront) return null;
  const base = storefront.replace(/\/+$/, '');
  return slug === 'home' ? `${base}/${locale}` : `${base}/${locale}/pages/${slug}`;
}

export const storefrontOf = (settings: { marketplace: Body }) => settings.marketplace.storefront_url;
