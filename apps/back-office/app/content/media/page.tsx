import type { Metadata } from 'next';
import { read, requireOperator } from '../../../lib/session';
import { ContentNav } from '../content-nav';
import { UploadForm } from './upload-form';

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
      {canWrite && (
        <section aria-labelledby="upload">
          <h2 id="upload">Upload</h2>
          <UploadForm />
        </section>
      )}
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
