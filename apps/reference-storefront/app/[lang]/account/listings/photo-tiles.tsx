'use client';

import { useEffect, useRef, useState } from 'react';
import type { ListingImage } from '../../../../lib/api';
import { messages } from '../../../../lib/messages';

export interface Upload {
  key: string;
  name: string;
  file: File;
  preview: string;
  progress: number;
  state: 'queued' | 'uploading' | 'failed';
  error?: string;
}

/**
 * One photo of the listing with its buttons: earlier, later, delete (which asks first). Every
 * button is named with the photo's place ("Move earlier: Photo 2 of 3") for screen readers.
 */
export function PhotoTile({
  lang,
  image,
  index,
  total,
  busy,
  onMove,
  onRemove,
}: {
  lang: string;
  image: ListingImage;
  index: number;
  total: number;
  busy: boolean;
  onMove: (index: number, by: -1 | 1) => void;
  onRemove: (id: string) => void;
}) {
  const t = messages(lang).listings;
  const name = t.photos.photo(index + 1, total);
  const [asking, setAsking] = useState(false);
  const yes = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) yes.current?.focus();
  }, [asking]);
  return (
    <li className="photo-tile" data-image={image.id} data-status={image.status}>
      <figure>
        {image.urls ? (
          <img src={image.urls.thumb} alt={name} width={400} height={400} />
        ) : (
          <span className={`photo-wait ${image.status}`} role="img" aria-label={`${name}: ${image.status === 'failed' ? t.photos.failed : t.photos.processing}`}>
            {image.status === 'failed' ? t.photos.failed : t.photos.processing}
          </span>
        )}
        <figcaption>{index === 0 ? t.photos.main : name}</figcaption>
      </figure>
      {asking ? (
        <div className="photo-confirm" role="group" aria-label={t.photos.removeConfirm}>
          <span>{t.photos.removeConfirm}</span>
          <button ref={yes} type="button" className="danger" onClick={() => onRemove(image.id)} disabled={busy}>
            {t.yes}
          </button>
          <button type="button" className="secondary" onClick={() => setAsking(false)}>
            {t.cancel}
          </button>
        </div>
      ) : (
        <div className="photo-tools">
          <button type="button" className="icon" data-action="earlier" aria-label={`${t.photos.earlier}: ${name}`} title={t.photos.earlier} disabled={busy || index === 0} onClick={() => onMove(index, -1)}>
            ←
          </button>
          <button type="button" className="icon" data-action="later" aria-label={`${t.photos.later}: ${name}`} title={t.photos.later} disabled={busy || index === total - 1} onClick={() => onMove(index, 1)}>
            →
          </button>
          <button type="button" className="icon danger" data-action="remove" aria-label={`${t.photos.remove}: ${name}`} title={t.photos.remove} disabled={busy} onClick={() => setAsking(true)}>
            ✕
          </button>
        </div>
      )}
    </li>
  );
}

/** A photo on its way: its preview, then progress, or why it could not be added. */
export function UploadTile({ lang, upload: u, onDismiss }: { lang: string; upload: Upload; onDismiss: (key: string) => void }) {
  const t = messages(lang).listings.photos;
  return (
    <li className={`photo-tile upload ${u.state}`} data-upload={u.state}>
      <figure>
        <img src={u.preview} alt="" width={400} height={400} />
        <figcaption>{u.name}</figcaption>
      </figure>
      {u.state === 'failed' ? (
        <div className="photo-tools">
          <span className="field-error" role="alert">
            {u.error}
          </span>
          <button type="button" className="secondary" onClick={() => onDismiss(u.key)}>
            {t.dismiss}
          </button>
        </div>
      ) : u.state === 'queued' ? (
        <span className="muted">{t.queued}</span>
      ) : (
        <progress max={1} value={u.progress} aria-label={`${t.uploading}: ${u.name}`} />
      )}
    </li>
  );
}
