import axeCore from 'axe-core';
import type { Page } from 'playwright-core';

/**
 * What the accessibility test checks on one page, each returning readable problems
 * ("<rule>: <what> at <where>") so that a failure says what to fix without opening a report.
 */

declare global {
  interface Window {
    axe: typeof axeCore;
  }
}

/** Next's dev tools live in this element (dev server only): not part of the shop. */
const DEV_TOOLS = 'nextjs-portal';

/** axe-core's serious and critical violations (every rule axe runs by default, WCAG 2.2 included). */
export async function axeProblems(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axeCore.source });
  const violations = await page.evaluate(
    async (exclude) => {
      const result = await window.axe.run({ exclude: [[exclude]] }, { resultTypes: ['violations'] });
      return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: n.failureSummary ?? '' })) }));
    },
    DEV_TOOLS,
  );
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `axe ${v.id} (${v.impact}): ${v.help} at \`${n.target}\` — ${n.summary.replace(/\s+/g, ' ').slice(0, 300)}`));
}

/** The page's frame: a title, one h1, the landmarks, html lang, a skip link that reaches main. */
export async function structureProblems(page: Page, opts: { lang: string; shopName: string; isHome: boolean }): Promise<string[]> {
  const facts = await page.evaluate(() => {
    const first = document.querySelector('a[href], button, input, select, textarea');
    return {
      title: document.title,
      titles: document.querySelectorAll('title').length,
      titlesOutsideHead: document.querySelectorAll('body title').length,
      h1: document.querySelectorAll('h1').length,
      main: document.querySelectorAll('main').length,
      mainId: document.querySelector('main')?.id,
      header: document.querySelectorAll('body header').length,
      footer: document.querySelectorAll('body footer').length,
      nav: document.querySelectorAll('nav[aria-label]').length,
      lang: document.documentElement.lang,
      firstFocusable: first ? `${first.tagName.toLowerCase()} ${first.getAttribute('href') ?? ''}` : 'none',
    };
  });
  const problems: string[] = [];
  if (!facts.title.trim()) problems.push('title: the page has no <title>');
  if (facts.titles !== 1) problems.push(`title: ${facts.titles} <title> elements (expected 1)`);
  if (facts.titlesOutsideHead > 0) problems.push(`title: ${facts.titlesOutsideHead} <title> in <body> (metadata streamed, not server-rendered in <head>)`);
  if (!opts.isHome && facts.title.trim() === opts.shopName) problems.push(`title: only the shop's name ("${facts.title}"); a page says what it is`);
  if (facts.h1 !== 1) problems.push(`h1: ${facts.h1} h1 elements (expected exactly 1)`);
  if (facts.main !== 1 || facts.mainId !== 'main') problems.push(`landmarks: ${facts.main} <main> (expected 1, id="main")`);
  if (facts.header < 1) problems.push('landmarks: no <header>');
  if (facts.footer < 1) problems.push('landmarks: no <footer>');
  if (facts.nav < 1) problems.push('landmarks: no named <nav>');
  if (facts.lang !== opts.lang) problems.push(`lang: <html lang="${facts.lang}"> (expected ${opts.lang})`);
  if (facts.firstFocusable !== 'a #main') problems.push(`skip link: the first focusable element is ${facts.firstFocusable}, not a link to #main`);
  return problems;
}

/** Keyboard: Tab shows the skip link, Enter moves focus to main; every stop on the way has a ring of ≥ 3:1. */
export async function keyboardProblems(page: Page, stops = 6): Promise<string[]> {
  const problems: string[] = [];
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('Tab');
  const skip = await page.evaluate(() => {
    const el = document.activeElement as HTMLElement;
    const r = el.getBoundingClientRect();
    return { href: el.getAttribute('href'), visible: r.top >= 0 && r.bottom <= innerHeight && r.width > 0 };
  });
  if (skip.href !== '#main') problems.push(`skip link: Tab first reaches ${skip.href ?? 'something else'}`);
  else if (!skip.visible) problems.push('skip link: not visible when focused');
  for (let i = 0; i < stops; i++) {
    const ring = await page.evaluate(focusRing);
    if (ring) problems.push(ring);
    await page.keyboard.press('Tab');
  }
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  return problems;
}

/** Runs in the page: the focused element's outline against the background behind it (WCAG 2.4.13-style 3:1). */
function focusRing(): string | undefined {
  const el = document.activeElement as HTMLElement | null;
  if (!el || el === document.body) return undefined;
  const s = getComputedStyle(el);
  const name = `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className && typeof el.className === 'string' ? `.${el.className.split(' ')[0]}` : ''} "${(el.textContent ?? '').trim().slice(0, 30)}"`;
  if (s.outlineStyle === 'none' || parseFloat(s.outlineWidth) < 2) return `focus: no visible ring on ${name} (outline ${s.outlineStyle} ${s.outlineWidth})`;
  const rgb = (c: string) => (c.match(/[\d.]+/g) ?? ['0', '0', '0']).slice(0, 3).map(Number);
  const lum = (c: number[]) => {
    const [r, g, b] = c.map((v) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  // the ring is drawn outside the element (offset), over whatever is behind it
  let bg = 'rgb(255, 255, 255)';
  for (let p = el.parentElement; p; p = p.parentElement) {
    const c = getComputedStyle(p).backgroundColor;
    if (c && !c.startsWith('rgba(0, 0, 0, 0') && c !== 'transparent') {
      bg = c;
      break;
    }
  }
  const [a, b] = [lum(rgb(s.outlineColor)), lum(rgb(bg))].sort((x, y) => y - x);
  const ratio = (a! + 0.05) / (b! + 0.05);
  return ratio < 3 ? `focus: ring on ${name} has ${ratio.toFixed(2)}:1 against ${bg} (needs 3:1)` : undefined;
}

/** Phones: nothing wider than the screen, and every control a finger can hit (44 × 44 px). */
export async function phoneProblems(page: Page): Promise<string[]> {
  return page.evaluate((devTools) => {
    const problems: string[] = [];
    const doc = document.documentElement;
    if (doc.scrollWidth > innerWidth) {
      const wide = [...document.querySelectorAll('body *')]
        .filter((e) => e.getBoundingClientRect().right > innerWidth + 1 && !e.closest(devTools))
        .slice(0, 3)
        .map((e) => `${e.tagName.toLowerCase()}.${[...e.classList].join('.')}`);
      problems.push(`scroll: the page is ${doc.scrollWidth}px wide on a ${innerWidth}px screen (widest: ${wide.join(', ')})`);
    }
    for (const el of document.querySelectorAll<HTMLElement>('a[href], button, input:not([type=hidden]), select, textarea, summary')) {
      if (el.closest(devTools) || el.classList.contains('skip-link')) continue;
      let box = el.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue; // not shown
      const style = getComputedStyle(el);
      // a link inside a sentence is exempt (WCAG 2.5.8's inline exception): it sits in text
      if (el.tagName === 'A' && style.display === 'inline' && (el.parentElement?.textContent ?? '').trim() !== (el.textContent ?? '').trim()) continue;
      // a checkbox, or a visually hidden file input (drop zones), is hit through its label
      const input = el as HTMLInputElement;
      if ((input.type === 'checkbox' || input.type === 'radio' || input.type === 'file') && input.labels?.[0]) box = input.labels[0].getBoundingClientRect();
      if (box.height < 43.5 || box.width < 43.5) {
        const name = (el.getAttribute('aria-label') ?? el.textContent ?? input.name ?? '').trim().slice(0, 30);
        problems.push(`target: ${el.tagName.toLowerCase()} "${name}" is ${Math.round(box.width)}×${Math.round(box.height)} px (needs 44×44)`);
      }
    }
    return problems;
  }, DEV_TOOLS);
}
