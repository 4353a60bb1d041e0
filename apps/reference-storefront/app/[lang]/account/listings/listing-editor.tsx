'use client';

import Link from 'next/link';
import { useActionState, useEffect, useRef, useState } from 'react';
import { FieldRow } from '../../../_components/field-row';
import type { ListingImage } from '../../../../lib/api';
import { messages } from '../../../../lib/messages';
import { newKey } from '../../../../lib/new-key';
import { unplaced } from '../../../../lib/problems';
import { saveListingAction } from './actions';
import type { EditorState } from './editor-state';
import { editorFieldNames, type EditorModel } from './listing-form';
import { PhotoManager } from './photo-manager';

export interface EditorListing {
  id?: string;
  title: string;
  status: keyof ReturnType<typeof messages>['listings']['status'];
  images: ListingImage[];
  /** where it stands ("On sale" · "On sale since …", "Sold", "Reserved" · why), written by the server in the page's language (the browser's Intl may word a date differently) */
  standing?: { key: string; label: string; detail?: string };
}

/**
 * Create and edit on one page: photos, content, delivery and publishing in one form. A failed
 * save keeps every value as typed and puts each problem next to its field; "Saved." only appears
 * when the API took the whole form. A new listing becomes a draft on its first save (or when the
 * first photo is dropped) and the address becomes the draft's own, without leaving the page.
 */
export function ListingEditor({ lang, model, listing, notice }: { lang: string; model: EditorModel; listing: EditorListing; notice?: { text: string; link?: string } }) {
  const all = messages(lang);
  const t = all.listings;
  const [state, formAction, pending] = useActionState(saveListingAction, {} as EditorState);
  const [id, setId] = useState(listing.id);
  const [keys, setKeys] = useState({ save: '', publish: '', js: '' });
  const form = useRef<HTMLFormElement>(null);
  const saveButton = useRef<HTMLButtonElement>(null);
  // fresh idempotency keys per attempt, made in the browser (see ActionForm); `js` tells the action it may stay on this page
  useEffect(() => setKeys({ save: newKey(), publish: newKey(), js: '1' }), [state]);
  // after a refused attempt, the keyboard goes to the first thing to fix (photos come first on the page)
  useEffect(() => {
    if (!state.errors || Object.keys(state.errors).length === 0) return;
    (document.getElementById('photos-error') ?? form.current?.querySelector<HTMLElement>('[aria-invalid="true"], .field-error'))?.focus();
  }, [state]);
  useEffect(() => {
    if (!state.id || id) return;
    setId(state.id);
    window.history.replaceState(null, '', `/${lang}/account/listings/${state.id}`);
  }, [state.id, id, lang]);

  const value = (name: string, initial?: string) => (state.values ? (state.values[name] ?? '') : (initial ?? ''));
  const field = (f: EditorModel['sections'][number]['fields'][number]) => <FieldRow key={f.name} field={f} id={`listing-${f.name}`} value={value(f.name, f.defaultValue)} error={state.errors?.[f.name]} />;
  const others = unplaced(state.errors ?? {}, editorFieldNames(model), lang);
  const draft = listing.status === 'draft';
  // once a save went through (even if publishing then did not), the heading is what was saved
  const title = (state.ok || state.outcome === 'not_published' ? state.values?.title : undefined) || listing.title || (id ? t.untitled : t.new);
  const saveNotice = state.ok ? (state.outcome === 'created' ? t.created : t.saved) : undefined;

  return (
    <div className="listing-editor">
      <h1 id="listing-heading">{title}</h1>
      {id && (
        <p>
          <span className={`status ${listing.standing?.key ?? listing.status}`} data-testid="listing-status">
            {listing.standing?.label ?? t.status[listing.status]}
          </span>
          {listing.standing?.detail && <span className="muted"> · {listing.standing.detail}</span>}
        </p>
      )}
      {notice && !state.values && (
        <div className="notice" role="status" data-testid="publish-notice">
          <p>{notice.text}</p>
          {notice.link && <Link href={notice.link}>{t.viewPublic}</Link>}
        </div>
      )}
      <PhotoManager lang={lang} listingId={id} initial={listing.images} error={state.errors?.photos} needDraft={() => !pending && form.current?.requestSubmit(saveButton.current)} />
      <form ref={form} action={formAction} className="form editor-form" aria-labelledby="listing-heading" noValidate>
        <input type="hidden" name="lang" value={lang} />
        <input type="hidden" name="id" value={id ?? ''} />
        <input type="hidden" name="js" value={keys.js} />
        <input type="hidden" name="idempotency_key" value={keys.save} />
        <input type="hidden" name="idempotency_key_publish" value={keys.publish} />
        {/* keyed by what the last attempt sent back: React resets a form after its action, and this refills it */}
        <div key={JSON.stringify(state.values ?? null)} className="editor-fields">
          {model.sections.map((section) => (
            <fieldset key={section.key} className="editor-section">
              <legend>{section.title}</legend>
              {section.fields.map(field)}
            </fieldset>
          ))}
          <fieldset className={`editor-section${state.errors?.delivery ? ' has-error' : ''}`} aria-describedby={state.errors?.delivery ? 'delivery-error' : undefined}>
            <legend>{model.delivery.title}</legend>
            {state.errors?.delivery && (
              <p id="delivery-error" className="field-error" role="alert" tabIndex={-1}>
                {state.errors.delivery}
              </p>
            )}
            {model.delivery.fields.map(field)}
            {model.delivery.shippingPrice && field(model.delivery.shippingPrice)}
            {model.delivery.tableNote && (
              <div className="explain" data-field="shipping_size">
                <p>{model.delivery.tableNote}</p>
                <p className="muted">{model.delivery.sizeNote}</p>
                {state.errors?.shipping_size && (
                  <p className="field-error" role="alert" tabIndex={-1}>
                    {state.errors.shipping_size}
                  </p>
                )}
              </div>
            )}
          </fieldset>
          {draft && (
            <fieldset className="editor-section">
              <legend>{t.publishTitle}</legend>
              <p className="hint">{t.publishHint}</p>
              {model.publish.map(field)}
            </fieldset>
          )}
        </div>
        {state.outcome === 'not_published' && <p className="notice">{t.notPublished}</p>}
        {state.message && (
          <div className="problem" role="alert">
            <p>{state.message}</p>
            {others.length > 0 && (
              <ul>
                {others.map((o) => (
                  <li key={o}>{o}</li>
                ))}
              </ul>
            )}
          </div>
        )}
        {saveNotice && (
          <p className="notice" role="status">
            {saveNotice}
          </p>
        )}
        <div className="editor-buttons">
          <button ref={saveButton} type="submit" name="intent" value="save" className={draft ? 'secondary' : undefined} disabled={pending}>
            {draft ? t.create : t.save}
          </button>
          {draft && (
            <button type="submit" name="intent" value="publish" disabled={pending}>
              {t.publish}
            </button>
          )}
        </div>
      </form>
    </div>
  );
}
