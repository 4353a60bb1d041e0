import { cookies } from 'next/headers';
import { cookieName } from './cookies';

/**
 * The currency a shopper chose to see prices in, remembered across pages: any page's `?currency=`
 * (the product page's switch, the search filter) is kept in this cookie by proxy.ts, and every
 * page that shows prices asks for it when its address names none.
 */
export const CURRENCY_COOKIE = cookieName('hm_currency');
export const ONE_YEAR_S = 365 * 24 * 60 * 60;

/** `asked` (from the address) if the shop sells in it, else the remembered one, else none. */
export async function shownCurrency(currencies: string[], asked?: string): Promise<string | undefined> {
  if (asked && currencies.includes(asked)) return asked;
  const remembered = (await cookies()).get(CURRENCY_COOKIE)?.value;
  return remembered && currencies.includes(remembered) ? remembered : undefined;
}
