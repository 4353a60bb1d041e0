/**
 * The back office's navigation in one place: the pages in the header's order, and the sections of
 * the pages that have tabs (a new page or section is one entry here).
 */
export type NavLink = { href: string; label: string };

const links = (entries: [href: string, label: string][]): NavLink[] => entries.map(([href, label]) => ({ href, label }));

export const PAGES = links([
  ['/', 'Attention'], ['/listings', 'Listings'], ['/orders', 'Orders'], ['/support', 'Support'], ['/users', 'Users'], ['/content', 'Content'],
  ['/vouchers', 'Vouchers'], ['/rates', 'Rates'], ['/newsletter', 'Newsletter'], ['/payouts', 'Payouts'], ['/settings', 'Settings'],
]);

export const SECTIONS = {
  Settings: links([['/settings', 'Marketplace'], ['/settings/keys', 'API keys'], ['/settings/team', 'Team'], ['/settings/audit', 'Audit trail'], ['/settings/webhooks', 'Webhooks'], ['/account/two-factor', 'Your two-factor codes']]),
  Content: links([['/content', 'Pages'], ['/content/media', 'Media library']]),
};
