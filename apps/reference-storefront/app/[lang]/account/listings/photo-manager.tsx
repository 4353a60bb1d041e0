'use client';

import { useEffect, useRef, useState } from 'react';
import type { ListingImage } from '../../../../lib/api';
import { messages } from '../../../../lib/messages';
import { problemMessages } from '../../../../lib/messages-problems';
import { newKey } from '../../../../lib/new-key';
import { deletePhotoAction, reorderPhotosAction, type PhotosResult } from './photo-actions';
import { PhotoTile, UploadTile, type Upload } from './photo-tiles';
import { ACCEPTED, MAX_PHOTO_BYTES, MAX_PHOTOS, fetchPhotos, uploadPhoto } from './photo-upload';

/**
 * The listing's photos: drop or choose several at once, each uploads with its progress and shows
 * up when the API has made its sizes (polled, no reload); move them earlier or later and delete
 * them with buttons. A new listing has no id yet: dropped photos wait, the editor saves the draft
 * (`needDraft`), and they upload once it exists.
 */
export function PhotoManager({ lang, listingId, initial, error, needDraft }: { lang: string; listingId?: string; initial: ListingImage[]; error?: string; needDraft: () => void }) {
  const t = messages(lang).listings.photos;
  const problems = problemMessages(lang);
  const [images, setImages] = useState(initial);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ text: string; problem?: boolean }>();
  const [over, setOver] = useState(false);
  const focusAfter = useRef<string | undefined>(undefined);
  const inputId = 'photo-files';

  const patch = (key: string, change: Partial<Upload>) => setUploads((all) => all.map((u) => (u.key === key ? { ...u, ...change } : u)));
  const signIn = () => window.location.assign(`/${lang}/auth/sign-in?next=${encodeURIComponent(window.location.pathname)}`);

  function add(files: File[]) {
    const room = MAX_PHOTOS - images.length - uploads.filter((u) => u.state !== 'failed').length;
    const next = files.map((file, i): Upload => {
      const refused = !ACCEPTED.includes(file.type) ? problems.codes.unsupported_media_type : file.size > MAX_PHOTO_BYTES ? problems.codes.payload_too_large : i >= room ? problems.rules.tooManyPhotos : undefined;
      return { key: newKey(), name: file.name, file, preview: URL.createObjectURL(file), progress: 0, state: refused ? 'failed' : 'queued', error: refused };
    });
    setUploads((all) => [...all, ...next]);
    if (!listingId && next.some((u) => u.state === 'queued')) needDraft();
  }

  // One upload at a time, in the order chosen: the API places each photo after the ones before it.
  const uploading = uploads.some((u) => u.state === 'uploading');
  const waiting = uploads.find((u) => u.state === 'queued');
  useEffect(() => {
    if (!listingId || uploading || !waiting) return;
    patch(waiting.key, { state: 'uploading' });
    void uploadPhoto(lang, listingId, waiting.file, (progress) => patch(waiting.key, { progress })).then((answer) => {
      if (answer.ok) {
        URL.revokeObjectURL(waiting.preview);
        setUploads((all) => all.filter((u) => u.key !== waiting.key));
        setImages((all) => [...all.filter((i) => i.id !== answer.image.id), answer.image]);
      } else if (answer.signedOut) signIn();
      else patch(waiting.key, { state: 'failed', error: answer.message || problems.codes.unreachable });
    });
    // runs again when an upload ends or the draft appears; `waiting` is re-read then
  }, [listingId, uploading, waiting?.key]);

  // While a photo is being processed, ask every second; stop as soon as none is.
  const processing = images.some((i) => i.status === 'processing');
  useEffect(() => {
    if (!listingId || !processing || uploading || busy) return;
    const timer = setInterval(async () => {
      const now = await fetchPhotos(lang, listingId);
      if (now) setImages(now);
    }, 1000);
    return () => clearInterval(timer);
  }, [lang, listingId, processing, uploading, busy]);

  // after a move or delete has answered (the buttons are disabled while it runs, and cannot take focus)
  useEffect(() => {
    if (!focusAfter.current || busy) return;
    document.querySelector<HTMLElement>(focusAfter.current)?.focus();
    focusAfter.current = undefined;
  }, [images, busy]);

  async function change(next: ListingImage[] | undefined, call: () => Promise<PhotosResult>, done: (now: ListingImage[]) => string) {
    const before = images;
    if (next) setImages(next);
    setBusy(true);
    const result = await call();
    setBusy(false);
    if ('images' in result) {
      setImages(result.images);
      setNotice({ text: done(result.images) });
    } else if (result.signedOut) signIn();
    else {
      setImages(before);
      setNotice({ text: result.error, problem: true });
    }
  }

  function move(index: number, by: -1 | 1) {
    const next = [...images];
    const [photo] = next.splice(index, 1);
    next.splice(index + by, 0, photo!);
    const to = index + by;
    // keep the keyboard on the photo that moved (on the other arrow once it reaches an end)
    const edge = (by === -1 && to === 0) || (by === 1 && to === next.length - 1);
    focusAfter.current = `[data-image="${photo!.id}"] [data-action="${edge ? (by === -1 ? 'later' : 'earlier') : by === -1 ? 'earlier' : 'later'}"]`;
    void change(next, () => reorderPhotosAction(lang, listingId!, next.map((i) => i.id), newKey()), (now) => t.moved(now.findIndex((i) => i.id === photo!.id) + 1, now.length));
  }

  function remove(id: string) {
    focusAfter.current = '#photos-title';
    void change(undefined, () => deletePhotoAction(lang, listingId!, id, newKey()), () => t.removed);
  }

  function dismiss(key: string) {
    setUploads((all) => all.filter((u) => (u.key === key ? (URL.revokeObjectURL(u.preview), false) : true)));
  }

  return (
    <section className="photo-manager" aria-labelledby="photos-title" data-field="photos">
      <h2 id="photos-title" tabIndex={-1}>
        {t.title}
      </h2>
      <p className="hint">{t.hint}</p>
      {error && (
        <p className="field-error" role="alert" id="photos-error" tabIndex={-1}>
          {error}
        </p>
      )}
      {images.length + uploads.length === 0 ? (
        <p className="muted">{t.none}</p>
      ) : (
        <ol className="photo-list">
          {images.map((img, i) => (
            <PhotoTile key={img.id} lang={lang} image={img} index={i} total={images.length} busy={busy} onMove={move} onRemove={remove} />
          ))}
          {uploads.map((u) => (
            <UploadTile key={u.key} lang={lang} upload={u} onDismiss={dismiss} />
          ))}
        </ol>
      )}
      <div
        className={`dropzone${over ? ' over' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setOver(false);
          add(Array.from(e.dataTransfer.files));
        }}
      >
        <span>{t.drop}</span>
        <input
          id={inputId}
          type="file"
          multiple
          accept={ACCEPTED.join(',')}
          className="file-input"
          aria-describedby={error ? 'photos-error' : undefined}
          onChange={(e) => {
            add(Array.from(e.currentTarget.files ?? []));
            e.currentTarget.value = '';
          }}
        />
        <label htmlFor={inputId} className="button secondary">
          {t.choose}
        </label>
      </div>
      <p className="visually-hidden" role="status">
        {notice && !notice.problem ? notice.text : ''}
      </p>
      {notice?.problem && (
        <p className="field-error" role="alert">
          {notice.text}
        </p>
      )}
    </section>
  );
}
