import { demoRandom } from './demo-random.js';
import { armchair, chair, coffeeTable, diningTable, shelf, sideboard, sofa, stool } from './drawings/furniture.js';
import { floorLamp, globePendant, layeredPendant, mushroomLamp, pendant, tableLamp, wallLamp } from './drawings/lighting.js';
import { FLOOR, HEIGHT, WIDTH, fillScale, paints, room, tint, type Drawing, type Look } from './drawings/scene.js';

export type { Look } from './drawings/scene.js';

/** The pieces the demo shop can draw; each product line of the demo data names one. */
export const DRAWINGS = {
  chair,
  armchair,
  stool,
  'dining-table': diningTable,
  'coffee-table': coffeeTable,
  sofa,
  sideboard,
  shelf,
  pendant,
  'layered-pendant': layeredPendant,
  'globe-pendant': globePendant,
  'table-lamp': tableLamp,
  'mushroom-lamp': mushroomLamp,
  'floor-lamp': floorLamp,
  'wall-lamp': wallLamp,
} satisfies Record<string, (r: ReturnType<typeof demoRandom>) => Drawing>;
export type DrawingKind = keyof typeof DRAWINGS;

/** What one listing's photos show: a piece, its colours, and the seed that fixes every detail. */
export interface PhotoSubject {
  kind: DrawingKind;
  look: Look;
  seed: string;
}

/** Material samples side by side: the photo a seller adds to show the real colours. */
function colourStudy(look: Look): string {
  const tiles = [
    { fill: 'url(#main)', x: 140, y: 150 },
    { fill: 'url(#fabric)', x: 830, y: 150 },
    { fill: 'url(#shade)', x: 140, y: 640 },
    { fill: 'url(#dark)', x: 830, y: 640 },
  ];
  return [
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="${tint(look.walls[1], 0.96)}"/>`,
    ...tiles.map((t) => `<rect x="${t.x + 14}" y="${t.y + 18}" width="630" height="420" rx="28" fill="#000" fill-opacity=".12"/><rect x="${t.x}" y="${t.y}" width="630" height="420" rx="28" fill="${t.fill}"/>`),
  ].join('');
}

/**
 * The SVG of photo `index` of a listing: 0 the piece in its room, 1 the other side in another room
 * (mirrored, closer, on a rug), 2 a close-up of its detail, 3 a colour study of its materials.
 * The piece itself comes from the subject's seed alone, so it is the same piece in every photo.
 */
export function photoSvg(subject: PhotoSubject, index: number): string {
  const drawn = DRAWINGS[subject.kind](demoRandom(`${subject.seed}:piece`));
  const s = fillScale(drawn);
  const oy = drawn.anchor ?? FLOOR;
  const piece = { ...drawn, svg: `<g transform="translate(800 ${oy}) scale(${s.toFixed(3)}) translate(-800 -${oy})">${drawn.svg}</g>`, focus: { x: 800 + (drawn.focus.x - 800) * s, y: oy + (drawn.focus.y - oy) * s } };
  const r = demoRandom(`${subject.seed}:photo:${index}`);
  const defs = `<defs>${paints(subject.look, demoRandom(`${subject.seed}:paints`))}</defs>`;
  const variant = index % 4;
  let viewBox = `0 0 ${WIDTH} ${HEIGHT}`;
  let body: string;
  if (variant === 3) {
    body = colourStudy(subject.look);
  } else if (variant === 1) {
    const rug = `<ellipse cx="800" cy="${1010}" rx="640" ry="120" fill="${tint(subject.look.fabric, 1.2)}" fill-opacity=".85"/>`;
    body = `${room(subject.look, subject.look.walls[1], piece, r)}${rug}<g transform="translate(${WIDTH} 0) scale(-1 1)">${piece.svg}</g>`;
    viewBox = `160 120 ${WIDTH - 320} ${HEIGHT - 240}`;
  } else {
    body = `${room(subject.look, subject.look.walls[0], piece, r)}${piece.svg}`;
    if (variant === 2) {
      const w = 720;
      const h = 540;
      const x = Math.min(Math.max(piece.focus.x - w / 2, 0), WIDTH - w);
      const y = Math.min(Math.max(piece.focus.y - h / 2, 0), HEIGHT - h);
      viewBox = `${x} ${y} ${w} ${h}`;
    }
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="${viewBox}" preserveAspectRatio="xMidYMid slice">${defs}${body}</svg>`;
}

/** Photo `index` as the JPEG a seller would upload (then processed like any upload). */
export async function renderPhoto(subject: PhotoSubject, index: number): Promise<Buffer> {
  // loaded here, not at the top: only the demo seed draws photos
  const { default: sharp } = await import('sharp');
  return sharp(Buffer.from(photoSvg(subject, index))).jpeg({ quality: 88, chromaSubsampling: '4:4:4' }).toBuffer();
}
