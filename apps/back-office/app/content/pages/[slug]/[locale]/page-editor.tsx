'use client';

import { startTransition, useActionState, useEffect, useState } from 'react';
import { FieldRow } from '../../../../../../reference-storefront/app/_components/field-row';
import { savePage } from '../../../../content-actions';
import { BLOCK_FIELDS, BLOCK_TYPES, shown, type BlockField } from '../../../../../lib/blocks';
import type { FormState } from '../../../../../lib/problems';

type Block = { key: string; type: string; data: Record<string, unknown> };

const words = (s: string) => s.replaceAll('_', ' ');
let made = 0;
const newKey = () => `b${Date.now().toString(36)}${(made++).toString(36)}`;

/** A field of the API's kinds as the storefront's field row draws it. */
function asField(f: BlockField, name: string) {
  const type = f.kind === 'text' || f.kind === 'json' ? 'textarea' : f.kind === 'select' ? 'select' : f.kind === 'check' ? 'checkbox' : f.kind === 'number' ? 'number' : 'text';
  return { name, label: f.label, type, hint: f.hint, rows: f.kind === 'json' ? 5 : 6, options: f.options ? [{ value: '', label: '(not set)' }, ...f.options.map((o) => ({ value: o, label: o }))] : undefined } as const;
}

/**
 * The page's draft as forms: its title and description, then one fieldset per block with its
 * type's fields; blocks are added, removed and moved here and saved together (the API checks the
 * whole page and lists every problem: each is shown at its field). Saving does not clear the form.
 */
export function PageEditor({ slug, locale, draft }: { slug: string; locale: string; draft: Record<string, unknown> }) {
  const [state, action, pending] = useActionState(savePage, {} as FormState);
  const [blocks, setBlocks] = useState<Block[]>(() =>
    ((draft.blocks as Record<string, unknown>[] | undefined) ?? []).map((b) => ({ key: newKey(), type: String(b.type), data: b })),
  );
  const [adding, setAdding] = useState('text');
  const [key, setKey] = useState('');
  useEffect(() => setKey(crypto.randomUUID()), [state]);
  const move = (i: number, by: number) =>
    setBlocks((list) => {
      const next = [...list];
      const [b] = next.splice(i, 1);
      next.splice(i + by, 0, b!);
      return next;
    });
  const err = (name: string) => state.errors?.[name];
  const row = (f: Parameters<typeof asField>[0], name: string, value: string) => <FieldRow key={name} field={asField(f, name)} id={`page-${name.replace(/\W+/g, '-')}`} value={value} error={err(name)} />;
  return (
    <form
      aria-label="Edit page"
      className="form stack page-editor"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget);
        startTransition(() => action(data));
      }}
    >
      <input type="hidden" name="slug" value={slug} />
      <input type="hidden" name="locale" value={locale} />
      <input type="hidden" name="idempotency_key" value={key} />
      {row({ name: 'title', label: 'Title', kind: 'line' }, 'title', String(draft.title ?? ''))}
      {row({ name: 'description', label: 'Description (search engines and sharing)', kind: 'text' }, 'description', String(draft.description ?? ''))}
      {row({ name: 'share_image_id', label: 'Share image id (media library)', kind: 'line' }, 'share_image_id', String(draft.share_image_id ?? ''))}
      <h2>Blocks</h2>
      {blocks.length === 0 && <p className="muted">No blocks yet: add one below.</p>}
      {blocks.map((b, i) => (
        <fieldset key={b.key} className="block" data-block-type={b.type}>
          <legend>
            {i + 1}. {words(b.type)}
          </legend>
          <input type="hidden" name={`blocks.${i}.type`} value={b.type} />
          {row({ name: 'id', label: 'Block id', kind: 'line', hint: 'Letters, digits, "-" and "_"' }, `blocks.${i}.id`, String(b.data.id ?? ''))}
          {(BLOCK_FIELDS[b.type] ?? []).map((f) => row(f, `blocks.${i}.${f.name}`, shown(f, b.data[f.name])))}
          <div className="block-actions">
            <button type="button" className="secondary" disabled={i === 0} onClick={() => move(i, -1)}>
              Move up<span className="visually-hidden"> block {i + 1}</span>
            </button>
            <button type="button" className="secondary" disabled={i === blocks.length - 1} onClick={() => move(i, 1)}>
              Move down<span className="visually-hidden"> block {i + 1}</span>
            </button>
            <button type="button" className="danger" onClick={() => setBlocks((list) => list.filter((x) => x.key !== b.key))}>
              Remove<span className="visually-hidden"> block {i + 1}</span>
            </button>
          </div>
        </fieldset>
      ))}
      <div className="form inline">
        <div className="field">
          <label htmlFor="page-add-type">New block</label>
          <select id="page-add-type" value={adding} onChange={(e) => setAdding(e.target.value)}>
            {BLOCK_TYPES.map((t) => (
              <option key={t} value={t}>
                {words(t)}
              </option>
            ))}
          </select>
        </div>
        <button type="button" className="secondary" onClick={() => setBlocks((list) => [...list, { key: newKey(), type: adding, data: { id: `${adding.replaceAll('_', '-')}-${list.length + 1}` } }])}>
          Add block
        </button>
      </div>
      {state.ok && (
        <p className="notice" role="status">
          Draft saved. Publish it to show it in the shop.
        </p>
      )}
      {!state.ok && state.message && (
        <p className="problem" role="alert">
          {state.message}
        </p>
      )}
      <button type="submit" disabled={pending}>
        Save draft
      </button>
    </form>
  );
}
