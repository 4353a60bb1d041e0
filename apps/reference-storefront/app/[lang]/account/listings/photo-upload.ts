import type { ListingImage } from '../../../../lib/api';
import { newKey } from '../../../../lib/new-key';

export const ACCEPTED = ['image/jpeg', 'image/png', 'image/webp'];
export const MAX_PHOTO_BYTES = 20 * 1024 * 1024;
export const MAX_PHOTOS = 20;

export type UploadAnswer = { ok: true; image: ListingImage } | { ok: false; message?: string; signedOut?: boolean };

const photosUrl = (lang: string, listingId: string) => `/${lang}/account/listings/${encodeURIComponent(listingId)}/photos`;

/**
 * One photo to the storefront's upload route, reporting progress (fetch cannot report upload
 * progress; XMLHttpRequest can). The route passes the bytes on to the API with the session.
 */
export function uploadPhoto(lang: string, listingId: string, file: File, onProgress: (fraction: number) => void): Promise<UploadAnswer> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', photosUrl(lang, listingId));
    xhr.setRequestHeader('content-type', file.type || 'application/octet-stream');
    xhr.setRequestHeader('idempotency-key', newKey());
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onload = () => {
      let body: { image?: ListingImage; message?: string; signedOut?: boolean } = {};
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // not JSON: a proxy or the server failed before our route answered
      }
      resolve(xhr.status === 202 && body.image ? { ok: true, image: body.image } : { ok: false, message: body.message, signedOut: body.signedOut || xhr.status === 401 });
    };
    xhr.onerror = () => resolve({ ok: false });
    xhr.send(file);
  });
}

/** The listing's photos as they are now (processing ones become ready in a second or two). */
export async function fetchPhotos(lang: string, listingId: string): Promise<ListingImage[] | undefined> {
  const res = await fetch(photosUrl(lang, listingId), { cache: 'no-store' }).catch(() => undefined);
  if (!res?.ok) return undefined;
  return ((await res.json()) as { images: ListingImage[] }).images;
}
