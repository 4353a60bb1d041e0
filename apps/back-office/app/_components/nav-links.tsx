'use client';

import { usePathname } from 'next/navigation';
import type { NavLink } from '../../lib/nav';
import { LinkList } from './link-list';

/** The navigation's links; the section the address is in is marked (aria-current). */
export function NavLinks({ pages }: { pages: NavLink[] }) {
  const path = usePathname();
  const within = (href: string) => (href === '/' ? path === '/' : path === href || path.startsWith(`${href}/`));
  return <LinkList links={pages} current={pages.find((p) => within(p.href))?.href} />;
}
