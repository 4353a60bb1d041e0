import type { DemoRandom } from '../demo-random.js';

/** The canvas every drawing is made on (4:3, like most phone photos); the floor line is at FLOOR. */
export const WIDTH = 1600;
export const HEIGHT = 1200;
export const FLOOR = 880;

/** One piece drawn in SVG, with the point a close-up crops around, its width and its top (cords aside). */
export interface Drawing {
  svg: string;
  focus: { x: number; y: number };
  width: number;
  top: number;
  /** hanging and wall lamps grow about their own height (y), not about the floor */
  anchor?: number;
}

/** How much a piece is enlarged (about the middle of the floor line) to fill the photo like a real one. */
export function fillScale(d: Drawing): number {
  const fit = d.anchor === undefined ? Math.min(1000 / d.width, 700 / (FLOOR - d.top)) : 900 / d.width;
  return Math.min(1.7, Math.max(1, fit));
}

export interface Finish {
  kind: 'wood' | 'lacquer' | 'metal';
  colour: string;
}

/** The colours of one listing's photos: its piece's finish, fabric and shade, and the room it stands in. */
export interface Look {
  main: Finish;
  fabric: string;
  shade: string;
  walls: [string, string];
  floor: string;
}

/** `#rrggbb` lighter (factor > 1) or darker (< 1). */
export function tint(hex: string, factor: number): string {
  const n = Number.parseInt(hex.slice(1), 16);
  const channel = (shift: number) => {
    const c = (n >> shift) & 0xff;
    const v = factor >= 1 ? c + (255 - c) * (factor - 1) : c * factor;
    return Math.max(0, Math.min(255, Math.round(v)));
  };
  return `#${[16, 8, 0].map((s) => channel(s).toString(16).padStart(2, '0')).join('')}`;
}

/** The wood grain, lacquer sheen or metal stripes that `url(#main)` paints with. */
function finishPaint(f: Finish, r: DemoRandom): string {
  if (f.kind === 'metal') {
    return `<linearGradient id="main" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="${tint(f.colour, 0.7)}"/><stop offset=".35" stop-color="${tint(f.colour, 1.45)}"/><stop offset=".6" stop-color="${f.colour}"/><stop offset="1" stop-color="${tint(f.colour, 0.6)}"/></linearGradient>`;
  }
  if (f.kind === 'lacquer') {
    return `<linearGradient id="main" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${tint(f.colour, 1.25)}"/><stop offset=".5" stop-color="${f.colour}"/><stop offset="1" stop-color="${tint(f.colour, 0.85)}"/></linearGradient>`;
  }
  // Grain as a repeating gradient of light and dark bands (seeded): it reads as wood at every size
  // and renders several times faster than a pattern of drawn grain lines.
  const band = r.int(28, 52);
  const stops = [0, 0.22 + r.next() * 0.1, 0.5, 0.72 + r.next() * 0.1, 1]
    .map((at, i) => `<stop offset="${at.toFixed(2)}" stop-color="${tint(f.colour, [1, 0.9, 1.06, 0.86, 1][i]!)}"/>`)
    .join('');
  return `<linearGradient id="main" gradientUnits="userSpaceOnUse" x1="0" y1="0" x2="${r.int(4, 14)}" y2="${band}" spreadMethod="reflect">${stops}</linearGradient>`;
}

/** Every paint a drawing may use, made from the look. */
export function paints(look: Look, r: DemoRandom): string {
  // Upholstery as soft shading, not a woven pattern: librsvg paints small pattern tiles slowly (a
  // sofa took 10× longer to render), and the weave did not show in the shop's thumbnails anyway.
  const fabric = `<linearGradient id="fabric" x1="0" y1="0" x2=".35" y2="1"><stop offset="0" stop-color="${tint(look.fabric, 1.12)}"/><stop offset=".6" stop-color="${look.fabric}"/><stop offset="1" stop-color="${tint(look.fabric, 0.84)}"/></linearGradient>`;
  return [
    finishPaint(look.main, r),
    fabric,
    `<linearGradient id="dark" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${tint(look.main.colour, 0.55)}"/><stop offset="1" stop-color="${tint(look.main.colour, 0.4)}"/></linearGradient>`,
    `<linearGradient id="shade" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="${tint(look.shade, 0.85)}"/><stop offset=".45" stop-color="${tint(look.shade, 1.15)}"/><stop offset="1" stop-color="${tint(look.shade, 0.8)}"/></linearGradient>`,
    `<radialGradient id="opal" cx=".4" cy=".35" r=".7"><stop offset="0" stop-color="#ffffff"/><stop offset=".6" stop-color="#f6f0e4"/><stop offset="1" stop-color="#d9d2c4"/></radialGradient>`,
    `<radialGradient id="glow"><stop offset="0" stop-color="#ffe7a3" stop-opacity=".75"/><stop offset="1" stop-color="#ffe7a3" stop-opacity="0"/></radialGradient>`,
    `<radialGradient id="shadow"><stop offset="0" stop-color="#000" stop-opacity=".28"/><stop offset="1" stop-color="#000" stop-opacity="0"/></radialGradient>`,
    `<linearGradient id="plinth" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${tint(look.floor, 1.3)}"/><stop offset="1" stop-color="${tint(look.floor, 1.05)}"/></linearGradient>`,
  ].join('');
}

/** The room: a wall lit from one side (a window's light falls on it), the floor, the piece's shadow. */
export function room(look: Look, wall: string, drawing: Drawing, r: DemoRandom): string {
  const windowX = r.int(100, 1100);
  return [
    `<linearGradient id="wall" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${tint(wall, 1.12)}"/><stop offset="1" stop-color="${tint(wall, 0.9)}"/></linearGradient>`,
    `<rect width="${WIDTH}" height="${FLOOR}" fill="url(#wall)"/>`,
    `<polygon points="${windowX},120 ${windowX + 260},120 ${windowX + 380},${FLOOR} ${windowX + 80},${FLOOR}" fill="#ffffff" fill-opacity=".13"/>`,
    `<rect y="${FLOOR}" width="${WIDTH}" height="${HEIGHT - FLOOR}" fill="${look.floor}"/>`,
    `<rect y="${FLOOR}" width="${WIDTH}" height="10" fill="${tint(look.floor, 0.8)}"/>`,
    `<ellipse cx="800" cy="${FLOOR + 8}" rx="${Math.max(160, drawing.width * fillScale(drawing) * 0.62)}" ry="46" fill="url(#shadow)"/>`,
  ].join('');
}
