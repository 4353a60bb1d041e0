import type { DemoRandom } from '../demo-random.js';
import { FLOOR, type Drawing } from './scene.js';

/**
 * Furniture as flat illustrations on a 1600 × 1200 canvas standing on the floor line. Fills name
 * the scene's paints: `url(#main)` (the piece's wood, lacquer or metal), `url(#fabric)`, `url(#dark)`.
 * Proportions vary a little with the random source, so two chairs of a kind are not identical.
 */

const leg = (x: number, top: number, w: number, splay = 0) =>
  `<polygon points="${x},${top} ${x + w},${top} ${x + w + splay},${FLOOR} ${x + splay - w * 0.15},${FLOOR}" fill="url(#main)"/>`;

export function chair(r: DemoRandom): Drawing {
  const seatY = 600 + r.int(-20, 20);
  const backTop = 300 + r.int(-30, 40);
  const w = 170 + r.int(-10, 25);
  const curved = r.chance(0.5);
  const back = curved
    ? `<path d="M ${800 - w} ${backTop + 60} Q 800 ${backTop - 40} ${800 + w} ${backTop + 60} L ${800 + w - 10} ${backTop + 170} Q 800 ${backTop + 90} ${800 - w + 10} ${backTop + 170} Z" fill="url(#main)"/>`
    : `<rect x="${800 - w + 10}" y="${backTop}" width="${2 * w - 20}" height="150" rx="24" fill="url(#main)"/>`;
  return {
    svg: [
      leg(800 - w + 30, seatY, 24, -8),
      leg(800 + w - 54, seatY, 24, 8),
      `<rect x="${800 - w + 20}" y="${backTop + 60}" width="26" height="${seatY - backTop - 40}" fill="url(#main)"/>`,
      `<rect x="${800 + w - 46}" y="${backTop + 60}" width="26" height="${seatY - backTop - 40}" fill="url(#main)"/>`,
      back,
      `<polygon points="${800 - w + 10},${seatY - 30} ${800 + w - 10},${seatY - 30} ${800 + w + 30},${seatY + 20} ${800 - w - 30},${seatY + 20}" fill="url(#main)"/>`,
      `<rect x="${800 - w - 30}" y="${seatY + 20}" width="${2 * w + 60}" height="26" rx="6" fill="url(#dark)"/>`,
      leg(800 - w - 20, seatY + 40, 34, -18),
      leg(800 + w - 14, seatY + 40, 34, 18),
    ].join(''),
    focus: { x: 800, y: seatY - 60 },
    top: backTop - 40,
    width: 2 * w + 100,
  };
}

export function armchair(r: DemoRandom): Drawing {
  const w = 260 + r.int(-20, 30);
  const seat = 600;
  const backTop = 300 + r.int(-30, 30);
  return {
    svg: [
      leg(800 - w + 20, seat + 120, 26, -20),
      leg(800 + w - 46, seat + 120, 26, 20),
      `<rect x="${800 - w + 30}" y="${backTop}" width="${2 * w - 60}" height="${seat - backTop + 60}" rx="70" fill="url(#fabric)"/>`,
      `<rect x="${800 - w}" y="${seat - 20}" width="${2 * w}" height="150" rx="40" fill="url(#fabric)"/>`,
      `<rect x="${800 - w + 70}" y="${seat - 50}" width="${2 * w - 140}" height="70" rx="30" fill="url(#fabric)" stroke="url(#dark)" stroke-opacity=".25" stroke-width="4"/>`,
      `<rect x="${800 - w - 30}" y="${seat - 110}" width="80" height="250" rx="34" fill="url(#main)"/>`,
      `<rect x="${800 + w - 50}" y="${seat - 110}" width="80" height="250" rx="34" fill="url(#main)"/>`,
    ].join(''),
    focus: { x: 800 - w + 40, y: seat - 40 },
    top: backTop,
    width: 2 * w + 80,
  };
}

export function stool(r: DemoRandom): Drawing {
  const top = 560 + r.int(-40, 40);
  const radius = 150 + r.int(-10, 20);
  return {
    svg: [
      leg(800 - radius + 10, top + 20, 34, -40),
      leg(800 + radius - 44, top + 20, 34, 40),
      leg(783, top + 30, 34, 0),
      `<ellipse cx="800" cy="${top + 24}" rx="${radius}" ry="40" fill="url(#dark)"/>`,
      `<ellipse cx="800" cy="${top}" rx="${radius}" ry="40" fill="url(#main)"/>`,
    ].join(''),
    focus: { x: 800, y: top },
    width: 2 * radius + 80,
    top: top - 40,
  };
}

export function diningTable(r: DemoRandom): Drawing {
  const w = 430 + r.int(-40, 60);
  const top = 560 + r.int(-20, 20);
  return {
    svg: [
      leg(800 - w + 80, top + 40, 30, 10),
      leg(800 + w - 110, top + 40, 30, -10),
      `<polygon points="${800 - w + 40},${top - 50} ${800 + w - 40},${top - 50} ${800 + w},${top} ${800 - w},${top}" fill="url(#main)"/>`,
      `<rect x="${800 - w}" y="${top}" width="${2 * w}" height="40" fill="url(#dark)"/>`,
      leg(800 - w + 30, top + 40, 44, -14),
      leg(800 + w - 74, top + 40, 44, 14),
    ].join(''),
    focus: { x: 800 - w + 60, y: top },
    top: top - 50,
    width: 2 * w,
  };
}

export function coffeeTable(r: DemoRandom): Drawing {
  const rx = 330 + r.int(-60, 60);
  const top = 700 + r.int(-20, 20);
  return {
    svg: [
      leg(800 - rx * 0.6, top + 10, 36, -20),
      leg(800 + rx * 0.6 - 36, top + 10, 36, 20),
      leg(782, top + 40, 36, 0),
      `<ellipse cx="800" cy="${top + 22}" rx="${rx}" ry="70" fill="url(#dark)"/>`,
      `<ellipse cx="800" cy="${top}" rx="${rx}" ry="70" fill="url(#main)"/>`,
      `<ellipse cx="${800 + rx * 0.3}" cy="${top - 20}" rx="60" ry="16" fill="#ffffff" fill-opacity=".18"/>`,
    ].join(''),
    focus: { x: 800, y: top },
    width: 2 * rx,
    top: top - 70,
  };
}

export function sofa(r: DemoRandom): Drawing {
  const w = 520 + r.int(-40, 60);
  const seat = 640;
  const cushions = r.int(2, 3);
  const cw = (2 * w - 180) / cushions;
  return {
    svg: [
      leg(800 - w + 50, seat + 140, 24, -14),
      leg(800 + w - 74, seat + 140, 24, 14),
      `<rect x="${800 - w + 40}" y="${seat - 250}" width="${2 * w - 80}" height="280" rx="50" fill="url(#fabric)"/>`,
      ...Array.from({ length: cushions }, (_, i) => `<rect x="${800 - w + 90 + i * cw}" y="${seat - 60}" width="${cw - 10}" height="90" rx="30" fill="url(#fabric)" stroke="url(#dark)" stroke-opacity=".3" stroke-width="4"/>`),
      `<rect x="${800 - w}" y="${seat + 20}" width="${2 * w}" height="130" rx="30" fill="url(#fabric)"/>`,
      `<rect x="${800 - w - 20}" y="${seat - 120}" width="110" height="270" rx="45" fill="url(#fabric)" stroke="url(#dark)" stroke-opacity=".2" stroke-width="4"/>`,
      `<rect x="${800 + w - 90}" y="${seat - 120}" width="110" height="270" rx="45" fill="url(#fabric)" stroke="url(#dark)" stroke-opacity=".2" stroke-width="4"/>`,
      `<rect x="${800 - w}" y="${seat + 130}" width="${2 * w}" height="18" fill="url(#main)"/>`,
    ].join(''),
    focus: { x: 800 - w + 120, y: seat - 20 },
    top: seat - 250,
    width: 2 * w + 40,
  };
}

export function sideboard(r: DemoRandom): Drawing {
  const w = 460 + r.int(-40, 60);
  const top = 480 + r.int(-30, 30);
  const doors = r.int(2, 4);
  const dw = (2 * w - 40) / doors;
  return {
    svg: [
      leg(800 - w + 40, FLOOR - 110, 22, -10),
      leg(800 + w - 62, FLOOR - 110, 22, 10),
      `<rect x="${800 - w}" y="${top}" width="${2 * w}" height="${FLOOR - 110 - top}" fill="url(#main)"/>`,
      `<rect x="${800 - w - 10}" y="${top - 26}" width="${2 * w + 20}" height="30" fill="url(#dark)"/>`,
      ...Array.from({ length: doors }, (_, i) => {
        const x = 800 - w + 20 + i * dw;
        return `<rect x="${x + 6}" y="${top + 24}" width="${dw - 12}" height="${FLOOR - 160 - top}" fill="none" stroke="url(#dark)" stroke-width="5" stroke-opacity=".5"/><rect x="${x + dw / 2 - 30}" y="${top + 50}" width="60" height="12" rx="6" fill="url(#dark)"/>`;
      }),
    ].join(''),
    focus: { x: 800 - w + 20 + dw / 2, y: top + 60 },
    top: top - 26,
    width: 2 * w + 20,
  };
}

export function shelf(r: DemoRandom): Drawing {
  const w = 320 + r.int(-30, 40);
  const top = 220 + r.int(0, 60);
  const levels = 4;
  const gap = (FLOOR - 60 - top) / levels;
  const books = [];
  for (let l = 0; l < levels; l++) {
    let x = 800 - w + 40;
    const base = top + (l + 1) * gap - 8;
    while (x < 800 + w - 120) {
      const bw = r.int(18, 42);
      const bh = r.int(Math.round(gap * 0.5), Math.round(gap * 0.85));
      if (r.chance(0.8)) books.push(`<rect x="${x}" y="${base - bh}" width="${bw}" height="${bh}" fill="${r.pick(['#b4443c', '#2f4858', '#d9a441', '#6b8f71', '#efe6d8', '#33312e', '#8c5a7a'])}"/>`);
      x += bw + r.int(0, 10);
    }
  }
  return {
    svg: [
      `<rect x="${800 - w}" y="${top}" width="26" height="${FLOOR - top}" fill="url(#dark)"/>`,
      `<rect x="${800 + w - 26}" y="${top}" width="26" height="${FLOOR - top}" fill="url(#dark)"/>`,
      ...Array.from({ length: levels + 1 }, (_, l) => `<rect x="${800 - w}" y="${top + l * gap - 8}" width="${2 * w}" height="22" fill="url(#main)"/>`),
      ...books,
    ].join(''),
    focus: { x: 800, y: top + gap * 1.5 },
    top,
    width: 2 * w,
  };
}
