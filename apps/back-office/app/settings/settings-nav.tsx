import { Tabs } from '../_components/tabs';

const SECTIONS = [
  { href: '/settings', label: 'Marketplace' },
  { href: '/settings/keys', label: 'API keys' },
  { href: '/settings/team', label: 'Team' },
  { href: '/settings/audit', label: 'Audit trail' },
  { href: '/settings/webhooks', label: 'Webhooks' },
  { href: '/account/two-factor', label: 'Your two-factor codes' },
];

/** The settings' sections (a new one is one line here). */
export function SettingsNav({ current }: { current: string }) {
  return <Tabs label="Settings" sections={SECTIONS} current={current} />;
}
