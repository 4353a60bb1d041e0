import type { ListingImage } from '@hm/db/entities';
import { defineMachine } from '../core/state-machine.js';

/** A listing photo: uploaded as `processing`; the `process-image` job makes its sizes (ready) or cannot read it (failed). */
export interface ImageMachineTypes {
  entity: ListingImage;
  event: 'finish' | 'fail';
  actor: 'system';
  ctx: undefined;
  data: object;
}

export const imageMachine = defineMachine<ImageMachineTypes>({
  name: 'photo',
  initial: 'processing',
  rows: [
    { from: ['processing'], event: 'finish', to: 'ready', who: ['system'], stamp: ['updatedAt'], clear: ['error'] },
    { from: ['processing'], event: 'fail', to: 'failed', who: ['system'], stamp: ['updatedAt'] },
  ],
  refusal: (image, event) => `Cannot ${event} this photo: it is ${image.status}.`,
});
