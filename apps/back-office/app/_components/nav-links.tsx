'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';

/** The navigation's links; the current section is marked (aria-current). */
export function NavLinks({ pages }: { pages: { href: string; label: string }[] }) {
  const path = usePathname();
  const current = (href: string) => (href === '/' ? path === '/' : path === href || path.startsWith(`${href}/`));
  return (
    <ul>
      {pages.map((p) => (
        <li key={p.href}>
          <Link href={p.href} aria-current={current(p.href) ? 'page' : undefined}>
            {p.label}
          </Link>
        </li>
      ))}
    </ul>
  );
}
