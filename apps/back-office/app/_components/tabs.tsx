import Link from 'next/link';

/** A page group's sections as tabs (settings, content), the current one marked. */
export function Tabs({ label, sections, current }: { label: string; sections: { href: string; label: string }[]; current: string }) {
  return (
    <nav aria-label={label}>
      <ul className="tabs">
        {sections.map((s) => (
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
