import type { NavLink } from '../../lib/nav';
import { LinkList } from './link-list';

/** A page's sections as tabs (settings, content, a list's filters), the current one marked. */
export function Tabs({ label, sections, current }: { label: string; sections: NavLink[]; current: string }) {
  return (
    <nav aria-label={label}>
      <LinkList links={sections} current={current} className="tabs" />
    </nav>
  );
}
