/** Where "Sell" leads: the new-listing form, through sign-in (which returns there) for a visitor. */
export function sellHref(lang: string, signedIn: boolean): string {
  const form = `/${lang}/account/listings/new`;
  return signedIn ? form : `/${lang}/auth/sign-in?next=${encodeURIComponent(form)}`;
}
