/**
 * What checkout keeps in its page address (`/<lang>/checkout/<id>?method=…&country=…`), re-quoted
 * from it: never the buyer's name, street, postal code, city or phone (browser history, Referer,
 * logs); those stay in the checkout draft cookie (lib/orders.ts). Shared by the server and the form.
 */
export const CHECKOUT_URL_FIELDS = ['quantity', 'method', 'option', 'country', 'voucher_code'] as const;
