/** Entry point of `@hm/domain/images`: the image store port and its adapters (the `process-image` task is in `@hm/domain/tasks`). */
export { IMAGE_SIZES, type ImageSize, type ImageStore, MEDIA_SIZES, mediaKey, type MediaSize, sizeKey } from './../core/ports/image-store.js';
export { diskImageStore } from './adapters/disk-image-store.js';
export { s3ImageStore, type S3Options } from './adapters/s3-image-store.js';
export { processImageTask } from './commands/process-image.js';
export { inspectImage, makeDerivatives, MAX_IMAGE_BYTES, MAX_IMAGE_PIXELS, MAX_IMAGES_PER_LISTING } from './derivatives.js';
export { imageMachine } from './image.machine.js';
export { receiveOriginal, tooLarge } from './receive-original.js';
export { markNow, photoTrace, photoTracer, type PhotoMark, type PhotoTraceMessage } from './photo-trace.js';
export { allowEarlyDerivatives, dropEarly, EARLY_KEEP_MS, EARLY_MAX, earlyInFlight, startEarly } from './early-derivatives.js';
