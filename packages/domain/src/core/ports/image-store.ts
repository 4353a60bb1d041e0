/** Image store port: photo originals (until processed) and their sizes, addressed by key. */
export interface StoredObject {
  body: Buffer;
  contentType: string;
}

export interface ImageStore {
  readonly name: 'disk' | 's3';
  /**
   * Stores `body` under `key`. A stream is written while it arrives; when it fails (the client went
   * away, a limit was passed) the put rejects with its error and nothing is left under `key`.
   * `length`: the stream's size when known (a Content-Length), for stores that need it up front.
   */
  put(key: string, body: Buffer | AsyncIterable<Buffer>, contentType: string, length?: number): Promise<void>;
  /** null when there is no such key */
  get(key: string): Promise<StoredObject | null>;
  /** missing keys are fine */
  delete(keys: string[]): Promise<void>;
}

export const IMAGE_SIZES = ['thumb', 'medium', 'large'] as const;
export type ImageSize = (typeof IMAGE_SIZES)[number];

/** Marketplace media (content pages) have one size more, for full-width banners on large screens. */
export const MEDIA_SIZES = ['thumb', 'medium', 'large', 'xlarge'] as const;
export type MediaSize = (typeof MEDIA_SIZES)[number];
export const mediaKey = (mediaId: string, size: MediaSize) => `media/${mediaId}/${size}.jpg`;

export const originalKey = (imageId: string) => `originals/${imageId}`;
export const sizeKey = (imageId: string, size: ImageSize) => `images/${imageId}/${size}.jpg`;
/** Every file a listing photo can have: what deleting it (or its listing) removes. */
export const imageKeys = (imageId: string) => [originalKey(imageId), ...IMAGE_SIZES.map((size) => sizeKey(imageId, size))];

/** Keys are ours (uuid + fixed names); anything else never reaches a store. */
export const SAFE_KEY = /^(originals\/[0-9a-f-]{36}|images\/[0-9a-f-]{36}\/(thumb|medium|large)\.jpg|media\/[0-9a-f-]{36}\/(thumb|medium|large|xlarge)\.jpg)$/;
