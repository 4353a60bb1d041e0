import type { Metadata } from 'next';
import Link from 'next/link';
import { read, requireOperator } from '../../lib/session';
import { when } from '../../lib/format';
import { storefrontPageUrl } from '../../lib/content';
import { DataTable, FilterField } from '../_components/data';
import { ContentNav } from './content-nav';
import { Section } from '../_components/section';

export const metadata: Metadata = { title: 'Content' };

/** Every content page in every language, published or not; each opens in its editor. */
export default async function ContentPage() {
  const { api, canWrite } = await requireOperator();
  const [{ items }, settings] = await Promise.all([read(api.pages.list.query({})), read(api.settings.get.query({}))]);
  return (
    <main id="main">
      <h1>Content</h1>
      <ContentNav current="/content" />
      <Section id="new-page" title="New page or language" shown={canWrite}>
        <form method="get" action="/content/new" className="form inline" aria-label="Open a page's editor">
          <FilterField id="new-slug" name="slug" label="Address (slug)" placeholder="about" />
          <FilterField id="new-locale" name="locale" label="Language" placeholder="en" />
          <button type="submit">Open editor</button>
        </form>
      </Section>
      <h2>Pages</h2>
      <DataTable
        columns={['Page', 'Language', 'Blocks', 'Status', 'Saved']}
        rows={items.map((p) => {
          const slug = String(p.slug);
          const locale = String(p.locale);
          const live = p.published ? storefrontPageUrl(settings.marketplace.storefront_url, slug, locale) : null;
          return {
            key: `${slug}/${locale}`,
            cells: [
              <Link href={`/content/pages/${slug}/${locale}`}>{`${String(p.title || slug)} (/${slug})`}</Link>,
              locale,
              String(p.blocks),
              p.published ? (
                <>
                  {live ? <a href={live}>Published</a> : 'Published'}
                  {p.draft_differs ? ' (draft has changes)' : ''}
                </>
              ) : (
                'Draft'
              ),
              when(p.updated_at),
            ],
          };
        })}
      />
    </main>
  );
}
