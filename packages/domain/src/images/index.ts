/** Entry point of `@hm/domain/images`: the image store port and its adapters (the `process-image` task is in `@hm/domain/tasks`). */
export { diskImageStore } from './adapters/disk-image-store.js';
export { s3ImageStore, type S3Options } from './adapters/s3-image-store.js';
export { IMAGE_SIZES, MEDIA_SIZES, mediaKey, sizeKey, type MediaSize, type ImageSize, type ImageStore } from './image-store.js';
export { MAX_IMAGE_BYTES, MAX_IMAGE_PIXELS, makeDerivatives } from './derivatives.js';
