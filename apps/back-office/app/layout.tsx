import type { Metadata, Viewport } from 'next';
import type { ReactNode } from 'react';
import { currentOperator } from '../lib/session';
import { SiteHeader } from './_components/site-header';
import './globals.css';

export const metadata: Metadata = { title: { template: '%s · Back office', default: 'Back office' } };
export const viewport: Viewport = { width: 'device-width', initialScale: 1, themeColor: '#1d3557' };

/** The frame every page shares: skip link, header (the navigation once signed in), the page's <main>, footer. */
export default async function RootLayout({ children }: { children: ReactNode }) {
  const operator = await currentOperator().catch(() => null);
  return (
    <html lang="en">
      <body>
        <a href="#main" className="skip-link">
          Skip to content
        </a>
        <SiteHeader operator={operator} />
        {children}
        <footer className="site-footer">
          <p>{operator ? `${operator.marketplace.name} · signed in as ${operator.email} (${operator.role})` : 'Back office of the marketplace team'}</p>
        </footer>
      </body>
    </html>
  );
}
