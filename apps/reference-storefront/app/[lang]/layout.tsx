import type { ReactNode } from 'react';
import '../globals.css';

/** The root layout sits under [lang] so that <html lang> is the page's language. */
export default async function ShopLayout({ children, params }: { children: ReactNode; params: Promise<{ lang: string }> }) {
  const { lang } = await params;
  return (
    <html lang={lang}>
      <body>{children}</body>
    </html>
  );
}
