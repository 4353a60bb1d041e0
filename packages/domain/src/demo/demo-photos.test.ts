import sharp from 'sharp';
import { expect, test } from 'vitest';
import { DRAWINGS, photoSvg, renderPhoto, type DrawingKind, type PhotoSubject } from './demo-photos.js';
import { demoListingPlans } from './demo-plans.js';

const subject = (kind: DrawingKind): PhotoSubject => ({
  kind,
  seed: `test:${kind}`,
  look: { main: { kind: 'wood', colour: '#c8a165' }, fabric: '#7d8c7a', shade: '#f1ead8', walls: ['#e9e4dc', '#dfe7e4'], floor: '#b9a286' },
});

test('every kind of piece is drawn the same way each time, and its four photos differ', () => {
  for (const kind of Object.keys(DRAWINGS) as DrawingKind[]) {
    const photos = [0, 1, 2, 3].map((i) => photoSvg(subject(kind), i));
    expect(photos.map((_, i) => photoSvg(subject(kind), i))).toEqual(photos);
    expect(new Set(photos).size, kind).toBe(4);
    expect(photos[0]).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="1600" height="1200"/);
  }
});

test('a rendered photo is a 1600×1200 JPEG with a picture in it (not a flat frame)', async () => {
  const plan = demoListingPlans(1)[0]!;
  const jpeg = await renderPhoto(plan.photos.subject, 0);
  const meta = await sharp(jpeg).metadata();
  expect(meta).toMatchObject({ format: 'jpeg', width: 1600, height: 1200 });
  const { channels } = await sharp(jpeg).stats();
  expect(channels.every((c) => c.stdev > 8)).toBe(true);
  expect((await renderPhoto(plan.photos.subject, 0)).equals(jpeg)).toBe(true); // deterministic bytes
});
