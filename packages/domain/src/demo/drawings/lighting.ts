import type { DemoRandom } from '../demo-random.js';
import { FLOOR, type Drawing } from './scene.js';

/**
 * Lamps on the same 1600 × 1200 canvas: `url(#main)` is the shade's or body's finish, `url(#glow)`
 * the warm light under a lit shade, `url(#dark)` fittings and cords.
 */

const glow = (cx: number, cy: number, r: number) => `<ellipse cx="${cx}" cy="${cy}" rx="${r}" ry="${r * 0.8}" fill="url(#glow)"/>`;
const cord = (x: number, from: number, to: number) => `<rect x="${x - 3}" y="${from}" width="6" height="${to - from}" fill="url(#dark)"/>`;

export function pendant(r: DemoRandom): Drawing {
  const y = 330 + r.int(-40, 60);
  const w = 200 + r.int(-30, 50);
  return {
    svg: [
      cord(800, 0, y - 80),
      glow(800, y + 120, w * 1.4),
      `<path d="M ${800 - w} ${y + 60} Q ${800 - w} ${y - 90} 800 ${y - 100} Q ${800 + w} ${y - 90} ${800 + w} ${y + 60} Z" fill="url(#main)"/>`,
      `<ellipse cx="800" cy="${y + 60}" rx="${w}" ry="22" fill="url(#dark)" fill-opacity=".6"/>`,
      `<ellipse cx="800" cy="${y + 62}" rx="${w * 0.45}" ry="12" fill="#fff6d8"/>`,
    ].join(''),
    focus: { x: 800, y },
    width: 2 * w,
    top: y - 100,
    anchor: y,
  };
}

export function layeredPendant(r: DemoRandom): Drawing {
  const y = 280 + r.int(-30, 50);
  const w = 230 + r.int(-20, 40);
  const shade = (top: number, half: number, drop: number) =>
    `<path d="M ${800 - half} ${top + drop} Q 800 ${top - drop * 0.6} ${800 + half} ${top + drop} L ${800 + half * 0.9} ${top + drop + 34} Q 800 ${top - drop * 0.6 + 44} ${800 - half * 0.9} ${top + drop + 34} Z" fill="url(#main)"/>`;
  return {
    svg: [
      cord(800, 0, y),
      glow(800, y + 220, w * 1.3),
      shade(y + 20, w * 0.45, 70),
      shade(y + 90, w * 0.75, 80),
      `<circle cx="800" cy="${y + 190}" r="34" fill="#fff6d8"/>`,
      shade(y + 170, w, 70),
    ].join(''),
    focus: { x: 800, y: y + 120 },
    top: y - 30,
    anchor: y + 120,
    width: 2 * w,
  };
}

export function globePendant(r: DemoRandom): Drawing {
  const y = 380 + r.int(-40, 40);
  const radius = 150 + r.int(-20, 40);
  return {
    svg: [
      cord(800, 0, y - radius),
      `<rect x="770" y="${y - radius - 30}" width="60" height="40" rx="8" fill="url(#dark)"/>`,
      glow(800, y + 40, radius * 1.8),
      `<circle cx="800" cy="${y}" r="${radius}" fill="url(#opal)"/>`,
    ].join(''),
    focus: { x: 800, y },
    width: 2 * radius,
    top: y - radius - 30,
    anchor: y,
  };
}

/** On a low plinth, so the lamp stands at table height. */
const plinth = (w: number, top: number) => `<rect x="${800 - w}" y="${top}" width="${2 * w}" height="${FLOOR - top}" fill="url(#plinth)"/>`;

export function tableLamp(r: DemoRandom): Drawing {
  const table = 690;
  const shadeTop = 330 + r.int(-40, 40);
  const shadeH = 190 + r.int(-20, 30);
  const top = 110 + r.int(-20, 30);
  const bottom = 190 + r.int(-20, 40);
  return {
    svg: [
      plinth(330, table),
      glow(800, shadeTop + shadeH + 40, bottom * 1.5),
      `<ellipse cx="800" cy="${table - 8}" rx="90" ry="22" fill="url(#main)"/>`,
      `<rect x="788" y="${shadeTop + shadeH - 20}" width="24" height="${table - shadeTop - shadeH + 12}" fill="url(#main)"/>`,
      `<polygon points="${800 - top},${shadeTop} ${800 + top},${shadeTop} ${800 + bottom},${shadeTop + shadeH} ${800 - bottom},${shadeTop + shadeH}" fill="url(#shade)"/>`,
    ].join(''),
    focus: { x: 800, y: shadeTop + shadeH / 2 },
    top: shadeTop,
    width: 2 * bottom,
  };
}

export function mushroomLamp(r: DemoRandom): Drawing {
  const table = 700;
  const capY = 420 + r.int(-30, 30);
  const w = 170 + r.int(-20, 30);
  return {
    svg: [
      plinth(320, table),
      glow(800, capY + 80, w * 1.5),
      `<polygon points="772,${capY + 30} 828,${capY + 30} 850,${table} 750,${table}" fill="url(#main)"/>`,
      `<ellipse cx="800" cy="${table}" rx="60" ry="14" fill="url(#dark)"/>`,
      `<path d="M ${800 - w} ${capY + 40} Q 800 ${capY - w * 1.1} ${800 + w} ${capY + 40} Z" fill="url(#main)"/>`,
      `<ellipse cx="800" cy="${capY + 40}" rx="${w}" ry="16" fill="#fff6d8" fill-opacity=".9"/>`,
    ].join(''),
    focus: { x: 800, y: capY },
    top: capY - w * 0.55,
    width: 2 * w,
  };
}

export function floorLamp(r: DemoRandom): Drawing {
  const shadeTop = 200 + r.int(-30, 40);
  const arc = r.chance(0.4);
  const headX = arc ? 1050 : 800;
  return {
    svg: [
      `<ellipse cx="800" cy="${FLOOR - 10}" rx="130" ry="28" fill="url(#dark)"/>`,
      arc
        ? `<path d="M 800 ${FLOOR - 20} L 800 ${shadeTop + 300} Q 800 ${shadeTop - 40} ${headX} ${shadeTop + 40}" stroke="url(#main)" stroke-width="16" fill="none"/>`
        : `<rect x="792" y="${shadeTop + 150}" width="16" height="${FLOOR - shadeTop - 170}" fill="url(#main)"/>`,
      glow(headX, shadeTop + 240, 240),
      `<polygon points="${headX - 90},${shadeTop} ${headX + 90},${shadeTop} ${headX + 170},${shadeTop + 170} ${headX - 170},${shadeTop + 170}" fill="url(#shade)"/>`,
    ].join(''),
    focus: { x: headX, y: shadeTop + 90 },
    top: shadeTop,
    width: 420,
  };
}

export function wallLamp(r: DemoRandom): Drawing {
  const y = 420 + r.int(-40, 40);
  const reach = 180 + r.int(-20, 60);
  return {
    svg: [
      `<rect x="560" y="${y - 70}" width="40" height="140" rx="12" fill="url(#dark)"/>`,
      `<path d="M 600 ${y} L ${600 + reach} ${y} L ${600 + reach} ${y + 40}" stroke="url(#main)" stroke-width="16" fill="none"/>`,
      glow(600 + reach, y + 200, 220),
      `<path d="M ${600 + reach - 120} ${y + 170} Q ${600 + reach} ${y - 10} ${600 + reach + 120} ${y + 170} Z" fill="url(#main)"/>`,
    ].join(''),
    focus: { x: 600 + reach, y: y + 100 },
    top: y - 70,
    anchor: y,
    width: reach + 200,
  };
}
