import type { Metadata } from 'next';
import Link from 'next/link';
import { read, requireOperator } from '../../../../../lib/session';
import { problemOf } from '../../../../../lib/problems';
import { when } from '../../../../../lib/format';
import { BLOCK_FIELDS, shown } from '../../../../../lib/blocks';
import { storefrontPageUrl } from '../../../../../lib/content';
import { publishPage } from '../../../../content-actions';
import { Facts } from '../../../../_components/data';
import { Form } from '../../../../_components/form';
import { PageEditor } from './page-editor';
import { PreviewLinkForm } from './preview-link-form';
import { Section } from '../../../../_components/section';

export const metadata: Metadata = { title: 'Page' };

type Params = { slug: string; locale: string };

/**
 * One page in one language (`/pages/{slug}/{locale}` on the API): admins edit its draft as forms per
 * block, make a preview link, publish and unpublish; viewers read the draft. A page not saved yet in
 * this language opens empty for an admin (saving creates it).
 */
export default async function PageEditorPage({ params }: { params: Promise<Params> }) {
  const { slug, locale } = await params;
  const { api, canWrite } = await requireOperator();
  const settings = await read(api.settings.get.query({}));
  let page: Record<string, unknown> | null = null;
  let draft: Record<string, unknown> = { title: '', description: '', blocks: [] };
  try {
    ({ page, draft } = await api.pages.get.query({ slug, locale }));
  } catch (error) {
    const p = problemOf(error);
    // not saved in this language yet: an admin starts it here; anything else is the page read() calls for
    if (!(p?.status === 404 && canWrite)) await read(Promise.reject(error));
  }
  const live = page?.published ? storefrontPageUrl(settings.marketplace.storefront_url, slug, locale) : null;
  const blocks = (draft.blocks as Record<string, unknown>[] | undefined) ?? [];
  return (
    <main id="main">
      <p className="back">
        <Link href="/content">← Content</Link>
      </p>
      <h1>
        {String(draft.title || slug)} <span className="muted">({locale})</span>
      </h1>
      <Facts
        items={[
          ['Address', <code>/{slug}</code>],
          ['Status', <span data-testid="page-status">{page ? (page.published ? (page.draft_differs ? 'published, draft has changes' : 'published') : 'draft') : 'not saved yet'}</span>],
          !!page?.published_at && ['Published', when(page.published_at)],
          !!live && ['In the shop', <a href={live}>{live}</a>],
        ]}
      />
      {canWrite && page && (
        <div className="actions">
          <Section id="publishing" title="Publishing">
            <Form action={publishPage} name="Publish page" submit="Publish the draft" hidden={{ slug, locale, do: 'publish' }} success="Published: the shop shows the draft now." />
            {!!page.published && <Form action={publishPage} name="Unpublish page" submit="Unpublish" danger hidden={{ slug, locale, do: 'unpublish' }} success="Unpublished: the shop answers 404 for it again." />}
          </Section>
          <Section id="preview" title="Preview">
            <PreviewLinkForm slug={slug} locale={locale} />
          </Section>
        </div>
      )}
      {canWrite ? (
        <>
          <h2>Draft</h2>
          <PageEditor slug={slug} locale={locale} draft={draft} />
        </>
      ) : (
        <>
          <h2>Draft</h2>
          <Facts items={[['Title', String(draft.title ?? '')], ['Description', String(draft.description ?? '')]]} />
          {blocks.map((b, i) => (
            <section key={i} className="card" aria-label={`Block ${i + 1}`}>
              <h3>
                {i + 1}. {String(b.type).replaceAll('_', ' ')}
              </h3>
              <Facts items={[['Block id', String(b.id)], ...(BLOCK_FIELDS[String(b.type)] ?? []).map((f) => b[f.name] !== undefined && ([f.label, <span className="break">{shown(f, b[f.name])}</span>] as [string, React.ReactNode]))]} />
            </section>
          ))}
        </>
      )}
    </main>
  );
}
