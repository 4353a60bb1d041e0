import Link from 'next/link';

const SECTIONS = [
  { href: '/settings', label: 'Marketplace' },
  { href: '/settings/keys', label: 'API keys' },
  { href: '/settings/team', label: 'Team' },
  { href: '/settings/audit', label: 'Audit trail' },
  { href: '/account/two-factor', label: 'Your two-factor codes' },
];

/** The settings' sections (a new one is one line here). */
export function SettingsNav({ current }: { current: string }) {
  return (
    <nav aria-label="Settings">
      <ul className="tabs">
        {SECTIONS.map((s) => (
          <li key={s.href}>
            <Link href={s.href} aria-current={s.href === current ? 'page' : undefined}>
              {s.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
