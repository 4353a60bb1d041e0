import type { ListingImage } from '@hm/db/entities';
import { expect, test } from 'vitest';
import type { DomainError } from '../core/errors.js';
import { transition } from '../core/state-machine.js';
import { imageMachine, type ImageMachineTypes } from './image.machine.js';

const NOW = new Date('2026-11-23T12:00:00Z');
const EARLIER = new Date('2026-11-23T11:00:00Z');
const image = (status: ListingImage['status']) => ({ status, updatedAt: EARLIER, error: 'old' }) as unknown as ListingImage;
const move = (i: ListingImage, event: ImageMachineTypes['event'], actor: ImageMachineTypes['actor'] = 'system') =>
  transition(imageMachine, i, event, actor, { now: NOW }).then(
    () => undefined,
    (err: DomainError) => ({ code: err.code, detail: err.message }),
  );

test('processing → finish → ready (error cleared); processing → fail → failed (error kept); both stamp updated_at', async () => {
  const ready = image('processing');
  expect(await move(ready, 'finish')).toBeUndefined();
  expect(ready).toMatchObject({ status: 'ready', updatedAt: NOW, error: null });
  const failed = image('processing');
  expect(await move(failed, 'fail')).toBeUndefined();
  expect(failed).toMatchObject({ status: 'failed', updatedAt: NOW, error: 'old' });
});

test.each([
  ['ready', 'finish'],
  ['ready', 'fail'],
  ['failed', 'finish'],
  ['failed', 'fail'],
] as const)('%s + %s is refused (409): a photo is processed once', async (status, event) => {
  const i = image(status);
  expect(await move(i, event)).toEqual({ code: 'conflict', detail: `Cannot ${event} this photo: it is ${status}.` });
  expect(i).toMatchObject({ status, updatedAt: EARLIER });
});

test('only the system moves a photo (403 for the seller)', async () => {
  expect(await move(image('processing'), 'finish', 'seller' as 'system')).toEqual({ code: 'forbidden', detail: 'The seller cannot finish this photo.' });
});
