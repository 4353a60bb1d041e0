import type { Metadata } from 'next';
import { read, requireOperator } from '../../../lib/session';
import { ContentNav } from '../content-nav';
import { uploadMedia } from '../../content-actions';
import { FormSection } from '../../_components/section';

export const metadata: Metadata = { title: 'Media library' };

type Media = { id: string; alt: string; width: number; height: number; urls: { thumb: string; large: string } };

/** The images for content pages, newest first; admins upload more (with alt text). A block takes an image by its id. */
export default async function MediaPage() {
  const { api, canWrite } = await requireOperator();
  const { items } = await read(api.media.list.query({ limit: 100 }));
  const media = items as unknown as Media[];
  return (
    <main id="main">
      <h1>Media library</h1>
      <ContentNav current="/content/media" />
      <FormSection
        id="upload"
        title="Upload"
        shown={canWrite}
        action={uploadMedia}
        name="Upload an image"
        submit="Upload"
        success="Uploaded: it is in the library below."
        fields={[
          { name: 'file', label: 'Image (JPEG, PNG or WebP, up to 20 MB)', type: 'file', accept: 'image/jpeg,image/png,image/webp', required: true },
          { name: 'alt', label: 'Alt text', required: true, hint: "What the image shows, for people who cannot see it (the marketplace's default language)." },
        ]}
      />
      <h2>Images</h2>
      {media.length === 0 ? (
        <p className="muted">No images yet.</p>
      ) : (
        <ul className="cards media-grid">
          {media.map((m) => (
            <li key={m.id} className="card" data-media={m.id}>
              <a href={m.urls.large}>
                <img src={m.urls.thumb} alt={m.alt} width={400} height={400} loading="lazy" />
              </a>
              <p className="break">{m.alt}</p>
              <p className="muted">
                {m.width}×{m.height} · id <code>{m.id}</code>
              </p>
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
