import Link from 'next/link';
import type { Operator } from '../../lib/session';
import { signOut } from '../account-actions';
import { NavLinks } from './nav-links';

/** The pages of the back office, in the navigation's order (a new page is one line here). */
export const PAGES = [
  { href: '/', label: 'Attention' },
  { href: '/listings', label: 'Listings' },
  { href: '/orders', label: 'Orders' },
  { href: '/support', label: 'Support' },
  { href: '/users', label: 'Users' },
  { href: '/content', label: 'Content' },
  { href: '/vouchers', label: 'Vouchers' }, { href: '/rates', label: 'Rates' }, { href: '/newsletter', label: 'Newsletter' }, { href: '/payouts', label: 'Payouts' },
  { href: '/settings', label: 'Settings' },
] as const;

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
            <NavLinks pages={PAGES.map((p) => ({ ...p }))} />
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
