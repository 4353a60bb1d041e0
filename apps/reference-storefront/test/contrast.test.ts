import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';

/**
 * The colours in globals.css against WCAG 2.2 AA: axe checks text it sees on a page, but not the
 * edges of form fields or the focus ring (1.4.11, 3:1), nor colours no page happens to show.
 */
const css = readFileSync(new URL('../app/globals.css', import.meta.url), 'utf8');
const root = css.slice(css.indexOf(':root {'), css.indexOf('}', css.indexOf(':root {')));
const colour = (name: string): string => {
  const found = root.match(new RegExp(`--${name}:\\s*(#[0-9a-f]{6})`, 'i'));
  if (!found) throw new Error(`--${name} is not a #rrggbb colour in :root`);
  return found[1]!;
};

function ratio(a: string, b: string): number {
  const lum = (hex: string) => {
    const [r, g, bl] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

const backgrounds = { white: '#ffffff', paper: colour('paper') };

test.each([
  ['ink', 4.5],
  ['muted', 4.5],
  ['accent', 4.5],
  ['problem-ink', 4.5],
  ['control', 3],
  ['focus', 3],
])('--%s reaches %s:1 on white and on the page background', (name, needed) => {
  for (const [bg, hex] of Object.entries(backgrounds)) expect(ratio(colour(name), hex), `--${name} on ${bg}`).toBeGreaterThanOrEqual(needed);
});

test('button text (white) on --accent, and messages on their tinted boxes, reach 4.5:1', () => {
  expect(ratio('#ffffff', colour('accent'))).toBeGreaterThanOrEqual(4.5);
  expect(ratio(colour('accent'), colour('accent-soft'))).toBeGreaterThanOrEqual(4.5);
  expect(ratio(colour('problem-ink'), colour('problem-bg'))).toBeGreaterThanOrEqual(4.5);
  expect(ratio(colour('focus'), colour('accent-soft'))).toBeGreaterThanOrEqual(3);
});
