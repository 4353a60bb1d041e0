'use client';

import { makePreviewLink } from '../../../../content-actions';
import { Form } from '../../../../_components/form';

/** A link to the draft in the storefront's preview page (valid 7 days; a new one ends the previous one). */
export function PreviewLinkForm({ slug, locale }: { slug: string; locale: string }) {
  return (
    <Form action={makePreviewLink} name="Make a preview link" submit="Make a preview link" hidden={{ slug, locale }}>
      {(s) =>
        s.ok && s.result?.url ? (
          <p className="notice" role="status">
            <a href={s.result.url} target="_blank" rel="noreferrer" data-testid="preview-link">
              Open the draft in the storefront
            </a>{' '}
            (valid 7 days)
          </p>
        ) : null
      }
    </Form>
  );
}
