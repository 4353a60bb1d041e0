import Link from 'next/link';
import type { NavLink } from '../../lib/nav';

/** Links as a list, the current one marked (aria-current): the header's navigation and a page's tabs. */
export function LinkList({ links, current, className }: { links: NavLink[]; current: string | undefined; className?: string }) {
  return (
    <ul className={className}>
      {links.map((l) => (
        <li key={l.href}>
          <Link href={l.href} aria-current={l.href === current ? 'page' : undefined}>
            {l.label}
          </Link>
        </li>
      ))}
    </ul>
  );
}
