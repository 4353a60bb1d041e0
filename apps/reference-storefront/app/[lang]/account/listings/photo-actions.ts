'use server';

import { apiAs, problemOf, type ListingImage } from '../../../../lib/api';
import { problemText } from '../../../../lib/problems';
import { sessionToken } from '../../../../lib/session';

/** What the photo manager gets back: the listing's photos in their order now, or why not (in the page's words). */
export type PhotosResult = { images: ListingImage[] } | { error: string; signedOut?: boolean };

async function withSeller(lang: string, call: (client: ReturnType<typeof apiAs>) => Promise<{ images: ListingImage[] }>): Promise<PhotosResult> {
  const token = await sessionToken();
  if (!token) return { error: '', signedOut: true };
  try {
    return { images: (await call(apiAs(token))).images };
  } catch (error) {
    return problemOf(error)?.status === 401 ? { error: '', signedOut: true } : { error: problemText(error, lang) };
  }
}

/** The new order, every photo once; the first becomes the main photo. */
export async function reorderPhotosAction(lang: string, id: string, imageIds: string[], idempotencyKey: string): Promise<PhotosResult> {
  return withSeller(lang, (client) => client.me.listings.orderImages.mutate({ id, image_ids: imageIds }, { context: { idempotencyKey } }));
}

export async function deletePhotoAction(lang: string, id: string, imageId: string, idempotencyKey: string): Promise<PhotosResult> {
  return withSeller(lang, async (client) => {
    await client.me.listings.deleteImage.mutate({ id, image_id: imageId }, { context: { idempotencyKey } });
    return client.me.listings.get.query({ id });
  });
}
