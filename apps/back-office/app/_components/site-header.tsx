import Link from 'next/link';
import type { Operator } from '../../lib/session';
import { signOut } from '../account-actions';
import { NavLinks } from './nav-links';
import { PAGES } from '../../lib/nav';

export function SiteHeader({ operator }: { operator: Operator | null }) {
  return (
    <header className="site-header">
      <div className="brand">
        <Link href="/">{operator ? operator.marketplace.name : 'Back office'}</Link>
        {operator && <span className="role">{operator.role === 'admin' ? 'Admin' : 'Viewer (read only)'}</span>}
      </div>
      {!operator && (
        <nav aria-label="Back office">
          <NavLinks pages={[{ href: '/sign-in', label: 'Sign in' }]} />
        </nav>
      )}
      {operator && (
        <>
          <nav aria-label="Back office">
            <NavLinks pages={PAGES} />
          </nav>
          <form action={signOut} className="sign-out">
            <button type="submit" className="quiet">
              Sign out
            </button>
          </form>
        </>
      )}
    </header>
  );
}
