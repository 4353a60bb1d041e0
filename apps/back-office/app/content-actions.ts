'use server';

import { revalidatePath } from 'next/cache';
import { apiUrl } from '../lib/api';
import { change, text } from '../lib/actions';
import { BLOCK_FIELDS, typed } from '../lib/blocks';
import { formProblem, type ApiProblemBody, type FormState } from '../lib/problems';
import { sessionToken } from '../lib/session';

/**
 * Content pages and the media library, one server action each through the operator's own session.
 * A page's problems (`body.page.blocks.2.heading`) come back at the editor's field of that name
 * (`blocks.2.heading`); a problem inside a JSON field (`blocks.0.buttons.1.href`) at the JSON field.
 */

const pageRef = (form: FormData) => ({ slug: text(form, 'slug'), locale: text(form, 'locale') });
const pagePaths = (slug: string, locale: string) => ['/content', `/content/pages/${slug}/${locale}`];

/** `page.blocks.3.rule.sort` → `blocks.3.rule`; `page.title` → `title`. */
function editorField(path: string): string {
  const p = path.replace(/^page\.?/, '');
  const block = /^blocks\.\d+\.[a-z_]+/.exec(p);
  return block ? block[0] : p.split('.')[0] || p;
}

export async function savePage(_: FormState, form: FormData): Promise<FormState> {
  const { slug, locale } = pageRef(form);
  const fields = ['title', 'description', 'share_image_id'];
  const errors: Record<string, string> = {};
  const blocks: Record<string, unknown>[] = [];
  // the blocks in the form's order (the editor names them blocks.<n>.<field>, n from 0)
  for (const [name, value] of form.entries()) {
    const m = /^blocks\.(\d+)\.type$/.exec(name);
    if (!m) continue;
    const n = m[1]!;
    const type = String(value);
    const block: Record<string, unknown> = { id: text(form, `blocks.${n}.id`), type };
    fields.push(`blocks.${n}.id`);
    for (const f of BLOCK_FIELDS[type] ?? []) {
      const field = `blocks.${n}.${f.name}`;
      fields.push(field);
      const { value: v, error } = typed(f, text(form, field));
      if (error) errors[`blocks.${blocks.length}.${f.name}`] = error;
      else if (v !== undefined) block[f.name] = v;
    }
    blocks.push(block);
  }
  if (Object.keys(errors).length) return { errors, message: 'Some fields need a look.' };
  const share = text(form, 'share_image_id');
  const page = { title: text(form, 'title'), description: text(form, 'description'), ...(share ? { share_image_id: share } : {}), blocks };
  return change(form, fields, (api, context) => api.pages.put.mutate({ slug, locale, page }, { context }).then(() => undefined), { revalidate: pagePaths(slug, locale), fieldOf: editorField });
}

export async function publishPage(_: FormState, form: FormData): Promise<FormState> {
  const { slug, locale } = pageRef(form);
  const call = text(form, 'do') === 'unpublish' ? 'unpublish' : 'publish';
  return change(form, [], (api, context) => api.pages[call].mutate({ slug, locale }, { context }).then(() => undefined), { revalidate: pagePaths(slug, locale) });
}

export async function makePreviewLink(_: FormState, form: FormData): Promise<FormState> {
  const { slug, locale } = pageRef(form);
  return change(form, [], async (api, context) => {
    const { preview } = await api.pages.previewLink.mutate({ slug, locale }, { context });
    return { url: preview.url, expires_at: preview.expires_at };
  });
}

/** The image's bytes go to the API's upload operation (`POST /console/v1/media?alt=…`) from this server, with the operator's session. */
export async function uploadMedia(_: FormState, form: FormData): Promise<FormState> {
  const token = await sessionToken();
  if (!token) return { message: 'You are signed out. Sign in again.' };
  const file = form.get('file');
  const alt = text(form, 'alt');
  if (!(file instanceof File) || file.size === 0) return { errors: { file: 'Choose an image (JPEG, PNG or WebP).' }, values: { alt } };
  let problem: ApiProblemBody | undefined;
  try {
    const res = await fetch(`${apiUrl()}/console/v1/media?${new URLSearchParams({ alt })}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': file.type || 'application/octet-stream' },
      body: Buffer.from(await file.arrayBuffer()),
    });
    if (res.ok) {
      revalidatePath('/content/media');
      return { ok: true };
    }
    problem = (await res.json().catch(() => undefined)) as ApiProblemBody | undefined;
  } catch {
    problem = undefined;
  }
  // the API names the query's alt `query.alt` and the image `body`
  return { ...formProblem(problem, ['alt', 'file'], (p) => (p === '' ? 'file' : p)), values: { alt } };
}
